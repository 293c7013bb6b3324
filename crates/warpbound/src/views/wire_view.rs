//! `wire_view!`: a wire type whose fields mirror a method crate's type, declared with each
//! field once. It writes the struct (every field `pub`, the attributes as given) and its
//! `From<&Source>`, which copies each field of the same name — or, for a field followed by
//! `= expression`, takes that expression (in terms of the source, bound to the name after
//! `as`). The views keep their own field lists (the JSON is theirs, not the method crate's);
//! what the macro saves is stating each field a second time in the conversion.

macro_rules! wire_view {
    (
        $(#[$meta:meta])*
        pub struct $name:ident from $source:ty as $s:ident {
            $(
                $(#[$field_meta:meta])*
                $field:ident: $ty:ty $(= $conv:expr)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
        }

        impl From<&$source> for $name {
            fn from($s: &$source) -> Self {
                $name {
                    $(
                        $field: $crate::views::wire_view::wire_view!(
                            @field $s . $field $(, $conv)?
                        ),
                    )*
                }
            }
        }
    };
    (@field $s:ident . $field:ident) => {
        Clone::clone(&$s.$field)
    };
    (@field $s:ident . $field:ident, $conv:expr) => {
        $conv
    };
}

pub(crate) use wire_view;

/// `wire_enum!`: the same for an enum of unit variants mirroring a method crate's: the enum
/// (attributes as given, each variant once) and the conversions both ways, variant to the
/// variant of the same name — for the request's types, which go back to the method crates,
/// as well as the report's.
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident mirrors $krate:ident :: $source:ident {
            $( $(#[$variant_meta:meta])* $variant:ident ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $( $(#[$variant_meta])* $variant, )*
        }

        impl From<$krate::$source> for $name {
            fn from(v: $krate::$source) -> Self {
                match v {
                    $( $krate::$source::$variant => $name::$variant, )*
                }
            }
        }

        impl From<$name> for $krate::$source {
            fn from(v: $name) -> Self {
                match v {
                    $( $name::$variant => $krate::$source::$variant, )*
                }
            }
        }
    };
}

pub(crate) use wire_enum;
