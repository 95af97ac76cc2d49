//! The listing columns, headers and footers against NVIDIA's own listings (independent of the
//! instruction table: only the parts of each line that are not instruction text).

use fermi::cubin::Arch;
use fermi::listing::{
    parse_listing_line, print_arch_header, print_function_footer, print_function_header,
    print_listing_line,
};

const LISTINGS: [&str; 2] = [
    include_str!("container-data/mailbag_maxindex_maxindex.isa"),
    include_str!("container-data/support_ballotscan_ballotscan.isa"),
];

#[test]
fn instruction_line_columns_match_cuobjdump() {
    let mut n = 0;
    for listing in LISTINGS {
        for line in listing.lines() {
            let Some(l) = parse_listing_line(line) else {
                continue;
            };
            n += 1;
            // Address and word as written in the line, read independently of the parser.
            let addr = u64::from_str_radix(&line[3..line.find("*/").unwrap()], 16).unwrap();
            let w0 = line.find("/*0x").unwrap() + 4;
            let word = u64::from_str_radix(&line[w0..w0 + 16], 16).unwrap();
            assert_eq!((l.addr, l.word), (addr, word));
            assert_eq!(l.text, line[l.text_offset..].trim_end());
            // Everything before the instruction text is reproduced byte for byte.
            let prefix = &line[..l.text_offset];
            assert!(
                print_listing_line(addr, word).starts_with(prefix),
                "{line:?}"
            );
            assert!(print_listing_line(addr, word).ends_with(";\n"));
        }
    }
    assert!(n > 400, "only {n} instruction lines found");
}

#[test]
fn headers_and_footers_match_cuobjdump() {
    for listing in LISTINGS {
        assert!(listing.starts_with(&print_arch_header(Arch::Sm20)));
        let mut names = 0;
        for (i, line) in listing.lines().enumerate() {
            if let Some(name) = line.strip_prefix("\t\tFunction : ") {
                names += 1;
                assert_eq!(print_function_header(name), format!("{line}\n"));
                // The footer is the first dotted line after the header, then two blank lines.
                let rest: Vec<&str> = listing.lines().skip(i).collect();
                let dots = rest.iter().position(|l| l.starts_with("\t\t.")).unwrap();
                let footer = format!("{}\n{}\n{}\n", rest[dots], rest[dots + 1], rest[dots + 2]);
                assert_eq!(print_function_footer(name), footer);
            }
        }
        assert!(names >= 2);
    }
}

#[test]
fn non_instruction_lines_are_not_parsed_as_instructions() {
    for line in [
        "",
        "\tcode for sm_20",
        "\t\tFunction : x",
        "\t\t..........",
        "/*0008*/ MOV R1, R2;",
        "/*zz*/ /*0x00*/ MOV;",
        "/*0008*/ /*0x*/ MOV;",
        "/*0008*/ /*0x00000000000000000*/ MOV;",
        "/*0008 /*0x0000000000000000*/",
    ] {
        assert_eq!(parse_listing_line(line), None, "{line:?}");
    }
    let l = parse_listing_line("/*10*/ /*0xff*/").unwrap();
    assert_eq!((l.addr, l.word, l.text), (0x10, 0xff, ""));
}

#[test]
fn disassemble_listing_keeps_the_shape_of_the_file() {
    for listing in LISTINGS {
        let out = fermi::disasm::disassemble_listing(listing);
        assert_eq!(out.lines().count(), listing.lines().count());
        for (a, b) in out.lines().zip(listing.lines()) {
            match parse_listing_line(b) {
                None => assert_eq!(a, b),
                Some(l) => {
                    let again = parse_listing_line(a).unwrap();
                    assert_eq!((again.addr, again.word), (l.addr, l.word));
                }
            }
        }
    }
}
