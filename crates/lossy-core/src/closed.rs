//! Closed enums of built-in schemes, generated from one list (smoltcp's
//! `AnyController`): the per-packet path dispatches with a `match`, never a `Box<dyn>`,
//! and adding a scheme is one line in the list. The scenario's tagged config tables
//! (`LossConfig`, `AgentConfig`) are made the same way, one config struct per variant:
//! their serde attributes and doc comments (the schema's descriptions) pass through,
//! and their methods dispatch to a trait each struct implements in its scheme's file.
//!
//! ```text
//! closed_enum! {
//!     /// Every built-in agent.
//!     pub enum AnyAgent via each_agent { Eln(ElnAgent), Snoop(SnoopAgent) }
//!     // optional: the enum implements the family's trait by delegating every listed
//!     // method to the variant held (list every method, defaulted ones included). Each
//!     // delegation is `#[inline]`, or takes the attributes written before its `fn`
//!     // instead (`#[inline(always)]` for a per-packet method the compiler left out of
//!     // line: the queue disciplines' `enqueue` and `dequeue`).
//!     impl Agent {
//!         fn state_bytes(&self) -> u64;
//!         #[inline(always)]
//!         fn on_timeout(&mut self, now: SimTime);
//!     }
//! }
//! // each_agent!(self, a => a.state_bytes()) matches every variant;
//! // AnyAgent::VARIANTS lists the variants' names in the list's order.
//! ```

/// Declares the enum, `From` for each variant's type, `VARIANTS` (the variants' names),
/// a `via` macro that runs one expression on whichever variant is held and, given an
/// `impl Trait { fn ...; }` block, the trait's implementation for the enum.
macro_rules! closed_enum {
    ($(#[$m:meta])* $vis:vis enum $name:ident via $via:ident { $($(#[$vm:meta])* $var:ident($ty:ty)),+ $(,)? }
     $(impl $tr:path { $($(#[$fa:meta])* fn $f:ident($($params:tt)*) $(-> $ret:ty)?;)* })*) => {
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
        #[allow(dead_code)]
        impl $name {
            /// The variants' names, in the list's order (the "for every scheme" tests
            /// iterate over it, so a new variant cannot be left out of them).
            pub const VARIANTS: &'static [&'static str] = &[$(stringify!($var)),+];
        }
        $crate::closed::closed_enum!(@via ($) $via $name { $($var),+ });
        $(
            impl $tr for $name {
                $($crate::closed::closed_enum!(@method [$(#[$fa])*] $via fn $f($($params)*) $(-> $ret)?);)*
            }
        )*
    };
    // A delegation without attributes of its own is `#[inline]`.
    (@method [] $via:ident fn $($sig:tt)*) => {
        $crate::closed::closed_enum!(@method [#[inline]] $via fn $($sig)*);
    };
    // `self` must come from the method's own tokens (macro hygiene), so it is matched
    // as an identifier, by reference or by mutable reference.
    (@method [$($attr:tt)+] $via:ident fn $f:ident(&mut $slf:ident $(, $a:ident: $at:ty)* $(,)?) $(-> $ret:ty)?) => {
        $($attr)+
        fn $f(&mut $slf $(, $a: $at)*) $(-> $ret)? {
            $via!($slf, x => x.$f($($a),*))
        }
    };
    (@method [$($attr:tt)+] $via:ident fn $f:ident(&$slf:ident $(, $a:ident: $at:ty)* $(,)?) $(-> $ret:ty)?) => {
        $($attr)+
        fn $f(&$slf $(, $a: $at)*) $(-> $ret)? {
            $via!($slf, x => x.$f($($a),*))
        }
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

/// A scheme family's lists from one line per scheme: declares each scheme's module (the
/// file named after it, beside the invoking file), re-exports the types the line names,
/// and builds the family's runtime enum and its config enum with [`closed_enum!`] (so
/// `From`, `VARIANTS`, the `via` macros and the trait delegation come with them). A new
/// scheme is its file and one line here; nothing else names it.
///
/// ```text
/// family! {
///     // the runtime list (optional): attributes, name, `via` macro, delegated traits
///     runtime {
///         #[derive(Clone, Debug)]
///         pub enum AnyQueueDisc via each_queue;
///         impl QueueDisc { fn len(&self) -> usize; }
///     }
///     // the scenario's table (optional): its serde attributes pass through
///     config {
///         #[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
///         #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
///         pub enum QueueDiscConfig via each_queue_config;
///         impl QueueDiscSpec { fn validate(&self) -> Result<(), String>; }
///     }
///     // one line per scheme: `module::Variant(RuntimeType, ConfigType)`, both types
///     // exported by `module`; the line's attributes (doc comment = the schema's
///     // description, `#[serde(rename = "..")]`) go to the config's variant.
///     schemes {
///         /// First in, first out.
///         drop_tail::DropTail(DropTail, DropTailConfig),
///         /// Random Early Detection.
///         red::Red(Box<Red>, RedConfig),     // boxed in the runtime list (`From<Red>` too)
///         // `module::Variant(_, ConfigType)`: a table that builds another's runtime value
///         // `module::Variant(RuntimeType)`: a member no table names (or no config list)
///     }
/// }
/// ```
///
/// `parts { ... }` adds a list of the schemes' parts (a transport's endpoints), each
/// line naming its own after `+`: `tcp::Tcp(TcpTransport, NAMED_TCP) + [TcpSender(tcp::TcpSender)]`.
///
/// `unit_config { ... }` instead of `config` makes a table of plain names (serde unit
/// variants: `tcp.variant = "reno"`): each variant is a name and its line's config item a
/// constant (or unit struct) of the scheme's file implementing the spec trait, which the
/// `via` macro hands to the expression.
macro_rules! family {
    ($(runtime { $($rt:tt)* })? $(config { $($ct:tt)* })? $(unit_config { $($ut:tt)* })? $(parts { $($pt:tt)* })? schemes { $($lines:tt)* }) => {
        $crate::closed::family!(@munch [$($($rt)*)?] [$($($ct)*)?] [$($($ut)*)?] [$($($pt)*)?] [] [] [] [] [] $($lines)*);
    };

    // One line at a time into: modules and their exports, runtime variants, boxed
    // runtime variants (for their `From`), config variants.
    (@munch $rt:tt $ct:tt $ut:tt $ph:tt [$($mods:tt)*] [$($rv:tt)*] [$($bx:tt)*] [$($cv:tt)*] [$($pv:tt)*]
        $(#[$a:meta])* $m:ident :: $v:ident (_, $c:ident) $(+ [$($parts:tt)*])? $(, $($rest:tt)*)?) => {
        $crate::closed::family!(@munch $rt $ct $ut $ph [$($mods)* ($m $c)] [$($rv)*] [$($bx)*] [$($cv)* ([$(#[$a])*] $v $m $c)] [$($pv)* $($($parts)*,)?] $($($rest)*)?);
    };
    (@munch $rt:tt $ct:tt $ut:tt $ph:tt [$($mods:tt)*] [$($rv:tt)*] [$($bx:tt)*] [$($cv:tt)*] [$($pv:tt)*]
        $(#[$a:meta])* $m:ident :: $v:ident (Box<$r:ident>, $c:ident) $(+ [$($parts:tt)*])? $(, $($rest:tt)*)?) => {
        $crate::closed::family!(@munch $rt $ct $ut $ph [$($mods)* ($m $r $c)] [$($rv)* ($v Box<$m::$r>)] [$($bx)* ($v $m $r)] [$($cv)* ([$(#[$a])*] $v $m $c)] [$($pv)* $($($parts)*,)?] $($($rest)*)?);
    };
    (@munch $rt:tt $ct:tt $ut:tt $ph:tt [$($mods:tt)*] [$($rv:tt)*] [$($bx:tt)*] [$($cv:tt)*] [$($pv:tt)*]
        $(#[$a:meta])* $m:ident :: $v:ident ($r:ident, $c:ident) $(+ [$($parts:tt)*])? $(, $($rest:tt)*)?) => {
        $crate::closed::family!(@munch $rt $ct $ut $ph [$($mods)* ($m $r $c)] [$($rv)* ($v $m::$r)] [$($bx)*] [$($cv)* ([$(#[$a])*] $v $m $c)] [$($pv)* $($($parts)*,)?] $($($rest)*)?);
    };
    (@munch $rt:tt $ct:tt $ut:tt $ph:tt [$($mods:tt)*] [$($rv:tt)*] [$($bx:tt)*] [$($cv:tt)*] [$($pv:tt)*]
        $(#[$a:meta])* $m:ident :: $v:ident (Box<$r:ident>) $(+ [$($parts:tt)*])? $(, $($rest:tt)*)?) => {
        $crate::closed::family!(@munch $rt $ct $ut $ph [$($mods)* ($m $r)] [$($rv)* ($v Box<$m::$r>)] [$($bx)* ($v $m $r)] [$($cv)*] [$($pv)* $($($parts)*,)?] $($($rest)*)?);
    };
    (@munch $rt:tt $ct:tt $ut:tt $ph:tt [$($mods:tt)*] [$($rv:tt)*] [$($bx:tt)*] [$($cv:tt)*] [$($pv:tt)*]
        $(#[$a:meta])* $m:ident :: $v:ident ($r:ident) $(+ [$($parts:tt)*])? $(, $($rest:tt)*)?) => {
        $crate::closed::family!(@munch $rt $ct $ut $ph [$($mods)* ($m $r)] [$($rv)* ($v $m::$r)] [$($bx)*] [$($cv)*] [$($pv)* $($($parts)*,)?] $($($rest)*)?);
    };

    // Every line read: emit.
    (@munch [$($rt:tt)*] [$($ct:tt)*] [$($ut:tt)*] [$($ph:tt)*] [$(($m:ident $($ty:ident)+))*] $rv:tt $bx:tt $cv:tt [$($pv:tt)*]) => {
        $(
            pub mod $m;
            pub use $m::{$($ty),+};
        )*
        $crate::closed::family!(@runtime [$($rt)*] $rv $bx);
        $crate::closed::family!(@config [$($ct)*] $cv);
        $crate::closed::family!(@unit_config [$($ut)*] $cv);
        $crate::closed::family!(@parts [$($ph)*] [$($pv)*]);
    };

    (@parts [] $pv:tt) => {};
    (@parts [$(#[$em:meta])* $vis:vis enum $name:ident via $via:ident; $($impls:tt)*] [$($pv:tt)*]) => {
        $crate::closed::closed_enum! {
            $(#[$em])* $vis enum $name via $via { $($pv)* }
            $($impls)*
        }
    };

    (@runtime [] $rv:tt $bx:tt) => {};
    (@runtime [$(#[$em:meta])* $vis:vis enum $name:ident via $via:ident; $($impls:tt)*] [$(($v:ident $($ty:tt)+))*] [$(($bv:ident $bm:ident $br:ident))*]) => {
        $crate::closed::closed_enum! {
            $(#[$em])* $vis enum $name via $via { $($v($($ty)+)),* }
            $($impls)*
        }
        $(
            impl From<$bm::$br> for $name {
                fn from(x: $bm::$br) -> Self {
                    $name::$bv(Box::new(x))
                }
            }
        )*
    };

    (@config [] $cv:tt) => {};
    (@config [$(#[$em:meta])* $vis:vis enum $name:ident via $via:ident; $($impls:tt)*] [$(([$($a:tt)*] $v:ident $m:ident $c:ident))*]) => {
        $crate::closed::closed_enum! {
            $(#[$em])* $vis enum $name via $via { $($($a)* $v($m::$c)),* }
            $($impls)*
        }
    };

    (@unit_config [] $cv:tt) => {};
    (@unit_config [$(#[$em:meta])* $vis:vis enum $name:ident via $via:ident; $(impl $tr:path { $($(#[$fa:meta])* fn $f:ident($($params:tt)*) $(-> $ret:ty)?;)* })*] [$(([$($a:tt)*] $v:ident $m:ident $c:ident))*]) => {
        $(#[$em])*
        $vis enum $name {
            $($($a)* $v),*
        }
        #[allow(dead_code)]
        impl $name {
            /// The variants' names, in the list's order.
            pub const VARIANTS: &'static [&'static str] = &[$(stringify!($v)),*];
        }
        $crate::closed::family!(@unit_via ($) $via $name { $(($v $m $c))* });
        $(
            impl $tr for $name {
                $($crate::closed::closed_enum!(@method [$(#[$fa])*] $via fn $f($($params)*) $(-> $ret)?);)*
            }
        )*
    };
    (@unit_via ($d:tt) $via:ident $name:ident { $(($v:ident $m:ident $c:ident))* }) => {
        #[allow(unused_macros)]
        macro_rules! $via {
            ($d this:expr, $d x:ident => $d body:expr) => {
                match $d this {
                    $($name::$v => {
                        let $d x = &$m::$c;
                        $d body
                    })*
                }
            };
        }
    };
}

pub(crate) use family;

/// A variant's name as serde's `rename_all = "snake_case"` writes it (`GilbertElliott`
/// → `gilbert_elliott`), for tests that compare `VARIANTS` with a schema's tags and for
/// messages that list the names a scenario may write.
pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    trait Speak {
        fn word(&self) -> &'static str;
        fn louder(&mut self, by: u32, twice: bool) -> u32;
        fn quiet(&self) -> bool {
            true
        }
    }
    struct Cat(u32);
    struct Dog;
    impl Speak for Cat {
        fn word(&self) -> &'static str {
            "meow"
        }
        fn louder(&mut self, by: u32, twice: bool) -> u32 {
            self.0 += if twice { 2 * by } else { by };
            self.0
        }
    }
    impl Speak for Dog {
        fn word(&self) -> &'static str {
            "woof"
        }
        fn louder(&mut self, by: u32, _twice: bool) -> u32 {
            by
        }
        fn quiet(&self) -> bool {
            false
        }
    }
    closed_enum! {
        enum Pet via each_pet { Cat(Cat), Dog(Dog) }
        impl Speak {
            fn word(&self) -> &'static str;
            #[inline(always)]
            fn louder(&mut self, by: u32, twice: bool) -> u32;
            fn quiet(&self) -> bool;
        }
    }

    #[test]
    fn the_generated_impl_delegates_every_listed_method_to_the_variant_held() {
        let mut cat = Pet::from(Cat(1));
        let dog = Pet::from(Dog);
        assert_eq!((cat.word(), dog.word()), ("meow", "woof"));
        assert_eq!(cat.louder(3, true), 7);
        // A defaulted method the variant overrides reaches the override.
        assert!(cat.quiet() && !dog.quiet());
        assert_eq!(Pet::VARIANTS, ["Cat", "Dog"]);
        assert_eq!(super::snake_case("GilbertElliott"), "gilbert_elliott");
    }
}
