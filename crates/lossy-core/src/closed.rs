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
//!     // method to the variant held (list every method, defaulted ones included).
//!     impl Agent {
//!         fn state_bytes(&self) -> u64;
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
     $(impl $tr:path { $(fn $f:ident($($params:tt)*) $(-> $ret:ty)?;)* })*) => {
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
        closed_enum!(@via ($) $via $name { $($var),+ });
        $(
            impl $tr for $name {
                $(closed_enum!(@method $via fn $f($($params)*) $(-> $ret)?);)*
            }
        )*
    };
    // `self` must come from the method's own tokens (macro hygiene), so it is matched
    // as an identifier, by reference or by mutable reference.
    (@method $via:ident fn $f:ident(&mut $slf:ident $(, $a:ident: $at:ty)* $(,)?) $(-> $ret:ty)?) => {
        #[inline]
        fn $f(&mut $slf $(, $a: $at)*) $(-> $ret)? {
            $via!($slf, x => x.$f($($a),*))
        }
    };
    (@method $via:ident fn $f:ident(&$slf:ident $(, $a:ident: $at:ty)* $(,)?) $(-> $ret:ty)?) => {
        #[inline]
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
