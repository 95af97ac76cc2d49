#[global_allocator]
static A: mimalloc::MiMalloc = mimalloc::MiMalloc;
#[path = "../benches/generate.rs"]
mod generate;
use std::time::Instant;
fn main() {
    let full = generate::generate();
    // first ~ 4 kernels
    let mut cut = 0;
    let mut n = 0;
    for (i, _) in full.match_indices(".func (") {
        n += 1;
        if n == 5 {
            cut = i;
            break;
        }
    }
    let small = diag::SourceFile::new("s.ptx", full[..cut].to_string());
    let reps = (20 << 20) / small.text.len();
    let mb = (reps * small.text.len()) as f64 / 1e6;
    let mode = std::env::args().nth(1).unwrap_or_default();
    if mode == "inst" {
        let line = std::env::args().nth(2).unwrap();
        let mut text = String::from(".version 7.0\n.target sm_61\n.address_size 64\n");
        let mut k = 0;
        while k < 1 {
            text.push_str(&format!(".visible .entry k{k}(.param .u64 pp)\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<24>;\n.reg .f32 %f<12>;\n.reg .b64 %rd<12>;\n.shared .align 16 .b8 smem[1024];\n$L0:\n"));
            for _ in 0..500 {
                text.push('\t');
                text.push_str(&line);
                text.push('\n');
            }
            text.push_str("ret;\n}\n");
            k += 1;
        }
        let file = diag::SourceFile::new("i.ptx", text);
        let (_, d) = check::check_source(&file);
        assert!(d.is_empty(), "{}", diag::render(&file, &d));
        let (ast, _) = syntax::parse_module(&file);
        let n = (k * 500) as f64;
        let reps = 2000;
        let n = n * reps as f64;
        for _ in 0..3 {
            let t = Instant::now();
            for _ in 0..reps {
                std::hint::black_box(syntax::parse_module(&file));
            }
            let p = t.elapsed().as_secs_f64();
            if std::env::var_os("PONLY").is_some() {
                println!("{line}: parse {:.0} ns/inst", p * 1e9 / n);
                continue;
            }
            let t = Instant::now();
            for _ in 0..reps {
                std::hint::black_box(check::check_module(&file, &ast));
            }
            let c = t.elapsed().as_secs_f64();
            println!(
                "{line}: parse {:.0} ns/inst, check {:.0} ns/inst ({:.0} B/inst)",
                p * 1e9 / n,
                c * 1e9 / n,
                file.text.len() as f64 / n
            );
        }
        return;
    }
    if mode == "lex" {
        for _ in 0..5 {
            let t = Instant::now();
            let mut lx = syntax::lexer::Lexer::new(&full);
            let mut n = 0u64;
            loop {
                let tk = lx.next_token();
                if tk.kind == syntax::lexer::TokenKind::Eof {
                    break;
                }
                n += 1;
            }
            let e = t.elapsed().as_secs_f64();
            println!(
                "lex {:.0} MB/s, {} tokens, {:.1} ns/token",
                full.len() as f64 / 1e6 / e,
                n,
                e * 1e9 / n as f64
            );
        }
        return;
    }
    if mode == "sizes" {
        sizes();
        return;
    }
    if mode == "parse" {
        for _ in 0..reps * 5 {
            std::hint::black_box(syntax::parse_module(&small));
        }
        return;
    }
    if mode == "check" {
        let (ast, _) = syntax::parse_module(&small);
        for _ in 0..reps * 5 {
            std::hint::black_box(check::check_module(&small, &ast));
        }
        return;
    }
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(syntax::parse_module(&small));
        }
        let p = t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(check::check_source(&small));
        }
        let c = t.elapsed().as_secs_f64();
        let (ast, _) = syntax::parse_module(&small);
        let t = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(check::check_module(&small, &ast));
        }
        let k = t.elapsed().as_secs_f64();
        println!(
            "hot: parse {:.0} MB/s, parse+check {:.0} MB/s, check-only {:.0} MB/s",
            mb / p,
            mb / c,
            mb / k
        );
    }
}
#[allow(dead_code)]
fn sizes() {
    println!(
        "Mods {} Guard {} types {} Operands {} Span {}",
        std::mem::size_of::<isa::Mods>(),
        std::mem::size_of::<Option<ir::Guard>>(),
        std::mem::size_of::<[Option<isa::Type>; isa::MAX_TYPE_SLOTS]>(),
        std::mem::size_of::<ir::Operands>(),
        std::mem::size_of::<diag::Span>()
    );
    println!(
        "ir::Inst {} ir::Operand {} isa::Match {} ir::Reg {}",
        std::mem::size_of::<ir::Inst>(),
        std::mem::size_of::<ir::Operand>(),
        std::mem::size_of::<isa::Match>(),
        std::mem::size_of::<ir::Reg>()
    );
}
