//! The `json!` literal macro.

/// Builds a [`Json`](crate::json::Json) value from a JSON-like literal.
///
/// `null`, `true`, `false`, numbers, strings, `[...]` and `{...}` nest as in JSON. Any Rust
/// expression that implements `Into<Json>` can stand for a value, and any expression that
/// implements `Into<String>` for a key (a string literal, a variable, `(a + b)`...). Trailing
/// commas are allowed. Object keys keep the order written; a repeated key keeps its first
/// position and its last value.
///
/// # Examples
///
/// ```
/// use httptool::json;
///
/// let city = "Hangzhou";
/// let key = String::from("days");
/// let v = json!({
///     "city": city,
///     key: 3,
///     "tags": ["a", 1.5, null, true, [], {}],
///     "nested": {"ok": city.len() > 3},
/// });
/// assert_eq!(
///     v.to_string(),
///     r#"{"city":"Hangzhou","days":3,"tags":["a",1.5,null,true,[],{}],"nested":{"ok":true}}"#
/// );
/// assert_eq!(json!(null), httptool::json::Json::Null);
/// ```
#[macro_export]
macro_rules! json {
    (null) => {
        $crate::json::Json::Null
    };
    ([]) => {
        $crate::json::Json::Array(::std::vec::Vec::new())
    };
    ([ $($tt:tt)+ ]) => {
        $crate::json::Json::Array($crate::__json_array!([] $($tt)+))
    };
    ({}) => {
        $crate::json::Json::Object($crate::json::Map::new())
    };
    ({ $($tt:tt)+ }) => {
        $crate::json::Json::Object({
            let mut map = $crate::json::Map::new();
            $crate::__json_object!(map [] $($tt)+);
            map
        })
    };
    ($other:expr) => {
        $crate::json::Json::from($other)
    };
}

/// Implementation detail of [`json!`]: munches array elements, collecting them as
/// expressions until the input runs out.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_array {
    // Done.
    ([ $($done:expr,)* ]) => {
        ::std::vec![ $($done,)* ]
    };
    // Nested literals, followed by a comma or the end.
    ([ $($done:expr,)* ] null $(, $($rest:tt)*)?) => {
        $crate::__json_array!([ $($done,)* $crate::json!(null), ] $($($rest)*)?)
    };
    ([ $($done:expr,)* ] [ $($inner:tt)* ] $(, $($rest:tt)*)?) => {
        $crate::__json_array!([ $($done,)* $crate::json!([ $($inner)* ]), ] $($($rest)*)?)
    };
    ([ $($done:expr,)* ] { $($inner:tt)* } $(, $($rest:tt)*)?) => {
        $crate::__json_array!([ $($done,)* $crate::json!({ $($inner)* }), ] $($($rest)*)?)
    };
    // Any other expression, followed by a comma or the end.
    ([ $($done:expr,)* ] $next:expr $(, $($rest:tt)*)?) => {
        $crate::__json_array!([ $($done,)* $crate::json!($next), ] $($($rest)*)?)
    };
}

/// Implementation detail of [`json!`]: munches object members into `$map`, collecting the
/// tokens of each key until `:` and then one value.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_object {
    // Done.
    ($map:ident []) => {};
    // The key is complete: go on with its value.
    ($map:ident [ $($key:tt)+ ] : $($rest:tt)+) => {
        $crate::__json_object!(@value $map [ $($key)+ ] $($rest)+);
    };
    // Values: nested literals first, then any expression; each followed by a comma or the end.
    (@value $map:ident [ $($key:tt)+ ] null $(, $($rest:tt)*)?) => {
        $map.insert(($($key)+), $crate::json!(null));
        $crate::__json_object!($map [] $($($rest)*)?);
    };
    (@value $map:ident [ $($key:tt)+ ] [ $($inner:tt)* ] $(, $($rest:tt)*)?) => {
        $map.insert(($($key)+), $crate::json!([ $($inner)* ]));
        $crate::__json_object!($map [] $($($rest)*)?);
    };
    (@value $map:ident [ $($key:tt)+ ] { $($inner:tt)* } $(, $($rest:tt)*)?) => {
        $map.insert(($($key)+), $crate::json!({ $($inner)* }));
        $crate::__json_object!($map [] $($($rest)*)?);
    };
    (@value $map:ident [ $($key:tt)+ ] $value:expr $(, $($rest:tt)*)?) => {
        $map.insert(($($key)+), $crate::json!($value));
        $crate::__json_object!($map [] $($($rest)*)?);
    };
    // Another token of the key.
    ($map:ident [ $($key:tt)* ] $next:tt $($rest:tt)*) => {
        $crate::__json_object!($map [ $($key)* $next ] $($rest)*);
    };
}

#[cfg(test)]
mod tests {
    use crate::json::{Json, Map};

    #[test]
    fn scalars() {
        assert_eq!(json!(null), Json::Null);
        assert_eq!(json!(true), Json::Bool(true));
        assert_eq!(json!(1.5).to_string(), "1.5");
        assert_eq!(json!(-3).as_i64(), Some(-3));
        assert_eq!(json!("s"), Json::String("s".into()));
        assert_eq!(json!(2 + 2).as_i64(), Some(4));
    }

    #[test]
    fn arrays() {
        let x = 7;
        assert_eq!(json!([]).to_string(), "[]");
        assert_eq!(json!([1, x, "y"]).to_string(), r#"[1,7,"y"]"#);
        assert_eq!(
            json!([null, [null], {}, [],]).to_string(),
            "[null,[null],{},[]]"
        );
        assert_eq!(json!([x + 1, -x, vec![1, 2]]).to_string(), "[8,-7,[1,2]]");
    }

    #[test]
    fn objects() {
        let key = String::from("k");
        let v = json!({
            "a": 1,
            "b": [true, {"c": null}],
            key: "from a variable",
            ("x".to_string() + "y"): {},
            "last": null,
        });
        assert_eq!(
            v.to_string(),
            r#"{"a":1,"b":[true,{"c":null}],"k":"from a variable","xy":{},"last":null}"#
        );
        assert_eq!(json!({}), Json::Object(Map::new()));
        assert_eq!(json!({"a": 1, "a": 2}).to_string(), r#"{"a":2}"#);
    }
}
