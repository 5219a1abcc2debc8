//! Refusal of field types that cannot be encoded or decoded without allocating.
//! The check is syntactic (a proc macro sees no types), so it names what it sees:
//! maps and sets, reference-counted boxes, `Box<dyn _>`, `serde_json::Value`.

use syn::{GenericArgument, PathArguments, Type};

/// Why `ty` cannot be handled without allocating, if it cannot.
pub fn allocating(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => {
            if let Some(q) = &p.qself {
                if let Some(why) = allocating(&q.ty) {
                    return Some(why);
                }
            }
            let segments: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
            if segments.iter().any(|s| s == "serde_json") && segments.last().is_some_and(|s| s == "Value") {
                return Some("`serde_json::Value` allocates for every string, array and object it holds".into());
            }
            for seg in &p.path.segments {
                let name = seg.ident.to_string();
                let why = match name.as_str() {
                    "HashMap" | "BTreeMap" | "IndexMap" => Some(format!("`{name}` allocates for its entries")),
                    "HashSet" | "BTreeSet" | "IndexSet" => Some(format!("`{name}` allocates for its elements")),
                    "VecDeque" | "LinkedList" | "BinaryHeap" => Some(format!("`{name}` allocates for its elements")),
                    "Rc" | "Arc" => Some(format!("`{name}` allocates the shared box it points to")),
                    _ => None,
                };
                if why.is_some() {
                    return why;
                }
                if let PathArguments::AngleBracketed(args) = &seg.arguments {
                    for arg in &args.args {
                        if let GenericArgument::Type(inner) = arg {
                            if name == "Box" && matches!(inner, Type::TraitObject(_)) {
                                return Some("`Box<dyn _>` allocates, and a trait object cannot be decoded".into());
                            }
                            if let Some(why) = allocating(inner) {
                                return Some(why);
                            }
                        }
                    }
                }
            }
            None
        }
        Type::TraitObject(_) => Some("a trait object cannot be decoded, and boxing one allocates".into()),
        Type::Reference(r) => allocating(&r.elem),
        Type::Array(a) => allocating(&a.elem),
        Type::Slice(s) => allocating(&s.elem),
        Type::Paren(p) => allocating(&p.elem),
        Type::Group(g) => allocating(&g.elem),
        Type::Tuple(t) => t.elems.iter().find_map(allocating),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::allocating;

    #[test]
    fn names_what_allocates() {
        let cases: &[(&str, Option<&str>)] = &[
            ("u32", None),
            ("Vec<&'a str>", None),
            ("Option<Box<Inner>>", None),
            ("std::collections::HashMap<String, u32>", Some("`HashMap` allocates for its entries")),
            ("Vec<BTreeMap<u8, u8>>", Some("`BTreeMap` allocates for its entries")),
            ("Box<dyn std::error::Error>", Some("`Box<dyn _>` allocates, and a trait object cannot be decoded")),
            ("Rc<str>", Some("`Rc` allocates the shared box it points to")),
            ("Option<Arc<Config>>", Some("`Arc` allocates the shared box it points to")),
            ("serde_json::Value", Some("`serde_json::Value` allocates for every string, array and object it holds")),
        ];
        for (src, want) in cases {
            let ty: syn::Type = syn::parse_str(src).unwrap();
            assert_eq!(allocating(&ty).as_deref(), *want, "{src}");
        }
    }
}
