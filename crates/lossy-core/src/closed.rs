//! Closed enums of built-in schemes, generated from one list (smoltcp's
//! `AnyController`): the per-packet path dispatches with a `match`, never a `Box<dyn>`,
//! and adding a scheme is one line in the list. The scenario's tagged config tables
//! (`LossConfig`, `AgentConfig`) are made the same way, one config struct per variant:
//! their serde attributes and doc comments (the schema's descriptions) pass through,
//! and their methods dispatch to a trait each struct implements in its scheme's file.
//!
//! ```ignore
//! closed_enum! {
//!     /// Every built-in agent.
//!     pub enum AnyAgent via each_agent { Eln(ElnAgent), Snoop(SnoopAgent) }
//! }
//! // each_agent!(self, a => a.state_bytes()) matches every variant.
//! ```

/// Declares the enum, `From` for each variant's type, and a `via` macro that runs one
/// expression on whichever variant is held.
macro_rules! closed_enum {
    ($(#[$m:meta])* $vis:vis enum $name:ident via $via:ident { $($(#[$vm:meta])* $var:ident($ty:ty)),+ $(,)? }) => {
        $(#[$m])*
        $vis enum $name {
            $($(#[$vm])* $var($ty)),+
        }
        $(
            impl From<$ty> for $name {
                fn from(x: $ty) -> Self {
                    $name::$var(x)
                }
            }
        )+
        closed_enum!(@via ($) $via $name { $($var),+ });
    };
    (@via ($d:tt) $via:ident $name:ident { $($var:ident),+ }) => {
        #[allow(unused_macros)]
        macro_rules! $via {
            ($d this:expr, $d x:ident => $d body:expr) => {
                match $d this {
                    $($name::$var($d x) => $d body),+
                }
            };
        }
    };
}

pub(crate) use closed_enum;
