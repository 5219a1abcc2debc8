//! Escaping: byte-equal to `html-escape` and `form_urlencoded` on arbitrary input,
//! and whole or nothing when the buffer is short.

use bounded::{escape, Buf};
use proptest::prelude::*;

/// Runs `f` into a buffer large enough for any escaping of `s`.
fn escaped(s: &str, f: fn(&mut Buf<'_>, &str)) -> Vec<u8> {
    let mut mem = vec![0u8; s.len() * 6 + 1];
    let mut buf = Buf::new(&mut mem);
    f(&mut buf, s);
    assert!(!buf.is_full());
    buf.bytes().to_vec()
}

proptest! {
    #![proptest_config(crate::proptest_config())]

    #[test]
    fn html_text_is_html_escape_encode_text(s in "\\PC*|[<>&\"' a-z]*") {
        let want = html_escape::encode_text(&s);
        prop_assert_eq!(escaped(&s, escape::html_text), want.as_bytes());
    }

    #[test]
    fn html_attr_is_html_escape_encode_quoted_attribute(s in "\\PC*|[<>&\"' a-z]*") {
        let want = html_escape::encode_quoted_attribute(&s);
        prop_assert_eq!(escaped(&s, escape::html_attr), want.as_bytes());
    }

    #[test]
    fn query_is_form_urlencoded_byte_serialize(s in any::<String>()) {
        let want: String = form_urlencoded::byte_serialize(s.as_bytes()).collect();
        prop_assert_eq!(escaped(&s, escape::query), want.as_bytes());
    }

    #[test]
    fn query_bytes_is_byte_serialize(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let want: String = form_urlencoded::byte_serialize(&bytes).collect();
        let mut mem = [0u8; 64 * 3];
        let mut buf = Buf::new(&mut mem);
        escape::query_bytes(&mut buf, &bytes);
        prop_assert_eq!(buf.bytes(), want.as_bytes());
    }

    #[test]
    fn escaping_that_does_not_fit_leaves_nothing(s in "[<>& a-z]{1,40}", room in 0usize..40) {
        for f in [escape::html_text, escape::html_attr, escape::query] {
            let full = escaped(&s, f);
            let mut mem = vec![0u8; 2 + room];
            let mut buf = Buf::new(&mut mem);
            buf.write_str("<>");
            f(&mut buf, &s);
            if full.len() <= room {
                prop_assert_eq!(&buf.bytes()[2..], &full[..]);
                prop_assert!(!buf.is_full());
            } else {
                prop_assert_eq!(buf.bytes(), b"<>");
                prop_assert!(buf.is_full());
            }
        }
    }
}

#[test]
fn escapes_the_characters_each_context_needs() {
    let s = r#"a<b>&"c'd e/f"#;
    assert_eq!(escaped(s, escape::html_text), br#"a&lt;b&gt;&amp;"c'd e/f"#);
    assert_eq!(escaped(s, escape::html_attr), b"a&lt;b&gt;&amp;&quot;c&#x27;d e/f");
    assert_eq!(escaped(s, escape::query), b"a%3Cb%3E%26%22c%27d+e%2Ff");
    assert_eq!(escaped("é*-._~", escape::query), b"%C3%A9*-._%7E");
}
