//! asfermi directives and file structure, using only `!RawInstruction` words so these tests
//! do not depend on the single-instruction assembler.

use diag::SourceFile;
use fermi::asm::{assemble_file, AsmOptions, Assembly, NOP_WORD};
use fermi::cubin::{read_cubin, AddressSize, Arch, Param};

fn asm(text: &str) -> Assembly {
    let file = SourceFile::new("t.sass", text);
    match assemble_file(&file, &AsmOptions::default()) {
        Ok(a) => a,
        Err(d) => panic!("unexpected errors:\n{}", diag::render(&file, &d)),
    }
}

#[test]
fn kernel_directives_set_every_resource() {
    let a = asm("!Machine 64\n\
         !Arch sm_21\n\
         !Kernel saxpy\n\
         !Param 8 2   // two pointers\n\
         !Param 4\n\
         !Param 1 3\n\
         !Param 8\n\
         !Shared 0x400\n\
         !Local 32\n\
         !MinStack 16\n\
         !MinFrame 24\n\
         !RegCount 20\n\
         !BarCount 2\n\
         !RawInstruction 0x00001de780000000\n\
         !EndKernel\n");
    let m = &a.module;
    assert_eq!(m.arch, Arch::Sm21);
    assert_eq!(m.address_size, AddressSize::Bits64);
    let k = &m.kernels[0];
    assert_eq!(k.name, "saxpy");
    // 8-byte params at 0 and 8, a 4-byte one at 16, three 1-byte ones at 20, 21, 22, and an
    // 8-byte one aligned up to 24.
    let expected: Vec<Param> = [(0, 8), (8, 8), (16, 4), (20, 1), (21, 1), (22, 1), (24, 8)]
        .iter()
        .map(|&(offset, size)| Param { offset, size })
        .collect();
    assert_eq!(k.params, expected);
    assert_eq!(k.param_size, 32);
    assert_eq!(
        (k.shared_size, k.local_size, k.min_stack_size, k.frame_size),
        (0x400, 32, 16, 24)
    );
    assert_eq!((k.reg_count, k.bar_count), (20, 2));
    assert_eq!(k.code, vec![0x00001de780000000]);
}

#[test]
fn defaults_when_the_file_says_nothing() {
    let a = asm("!RawInstruction 0x1\n");
    let k = &a.module.kernels[0];
    assert_eq!(k.name, "kernel");
    assert_eq!(a.module.arch, Arch::Sm20);
    assert_eq!(a.module.address_size, AddressSize::Bits64);
    assert_eq!(
        k.reg_count, 63,
        "Fermi's per-thread maximum when !RegCount is absent"
    );
    assert_eq!(k.bar_count, 0);
    assert_eq!(k.param_size, 0);
    let opts = AsmOptions {
        arch: Arch::Sm21,
        address_size: AddressSize::Bits32,
        default_kernel_name: "main".into(),
    };
    let a = assemble_file(&SourceFile::new("t", "!RawInstruction 0x1"), &opts).unwrap();
    assert_eq!(a.module.arch, Arch::Sm21);
    assert_eq!(a.module.address_size, AddressSize::Bits32);
    assert_eq!(a.module.kernels[0].name, "main");
}

#[test]
fn labels_get_the_address_of_the_next_instruction() {
    let a = asm("!Kernel k\n\
         start:\n\
         !RawInstruction 0x10\n\
         !Label middle\n\
         !RawInstruction 0x11\n\
         !RawInstruction 0x12\n\
         end: !RawInstruction 0x13\n\
         !EndKernel\n");
    let labels = &a.labels[0];
    assert_eq!(labels["start"], 0);
    assert_eq!(labels["middle"], 8);
    assert_eq!(
        labels["end"], 24,
        "a label may share its line with a directive"
    );
}

#[test]
fn align_pads_with_plain_nops() {
    let a = asm("!RawInstruction 0x1\n!Align 32\n!RawInstruction 0x2\n!Align\n!Align 8\n");
    let code = &a.module.kernels[0].code;
    assert_eq!(
        code,
        &vec![0x1, NOP_WORD, NOP_WORD, NOP_WORD, 0x2, NOP_WORD]
    );
}

#[test]
fn constant_bank_two_is_filled_little_endian() {
    let a = asm("!Constant2 32\n\
         !Constant int 0\n\
         1, -1 0x7fffffff\n\
         !EndConstant\n\
         !Constant float 12\n\
         1.5\n\
         !EndConstant\n\
         !Constant double 16\n\
         -2.0\n\
         !EndConstant\n\
         !Constant long 24\n\
         0x0102030405060708\n\
         !EndConstant\n\
         !RawInstruction 0x1\n");
    let c = &a.module.constant2;
    assert_eq!(c.len(), 32);
    assert_eq!(&c[0..4], &1u32.to_le_bytes());
    assert_eq!(&c[4..8], &[0xff; 4]);
    assert_eq!(&c[8..12], &0x7fff_ffffu32.to_le_bytes());
    assert_eq!(&c[12..16], &0x3fc0_0000u32.to_le_bytes(), "1.5f");
    assert_eq!(&c[16..24], &0xc000_0000_0000_0000u64.to_le_bytes(), "-2.0");
    assert_eq!(&c[24..32], &[8, 7, 6, 5, 4, 3, 2, 1]);
}

#[test]
fn several_kernels_and_listing_headers() {
    // The shape of `cuobjdump -sass` output; instruction text replaced by raw words.
    let a = asm("\n\tcode for sm_21\n\
         \t\tFunction : first\n\
         !RawInstruction 0xa\n\
         \t\t.........................\n\n\n\
         \t\tFunction : second\n\
         !RawInstruction 0xb\n\
         !RawInstruction 0xc\n\
         \t\t..........................\n");
    assert_eq!(a.module.arch, Arch::Sm21);
    let names: Vec<_> = a.module.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["first", "second"]);
    assert_eq!(a.module.kernels[1].code, vec![0xb, 0xc]);
}

#[test]
fn fatbinary_banner_lines_are_understood() {
    let a = asm(
        "Fatbin elf code:\n================\narch = sm_20\ncode version = [1,7]\n\
                 producer = cuda\nhost = linux\ncompile_size = 32bit\nidentifier = x.cu\n\
                 !RawInstruction 0x5\n",
    );
    assert_eq!(a.module.address_size, AddressSize::Bits32);
    assert_eq!(a.module.kernels[0].code, vec![0x5]);
}

#[test]
fn comments_of_both_kinds_are_ignored() {
    let a = asm(
        "/* a\n !RawInstruction 0x99\n */ !RawInstruction 0x1 // 0x2\n\
                 !RawInstruction /* inline */ 0x3\n",
    );
    assert_eq!(a.module.kernels[0].code, vec![0x1, 0x3]);
}

#[test]
fn assembly_writes_a_cubin_that_reads_back() {
    let a = asm(
        "!Kernel k\n!Param 4 2\n!Shared 256\n!RawInstruction 0x00001de780000000\n!EndKernel\n\
                 !Kernel j\n!RawInstruction 0x00001de780000000\n!EndKernel\n",
    );
    let back = read_cubin(&a.write_cubin().unwrap()).unwrap();
    assert_eq!(back, a.module);
}

#[test]
fn sync_stack_and_max_threads_reach_the_kernel_records() {
    // The values of maxindex.cubin's FindMaxIndexLoop (NVIDIA's: SYNC_STACK 0x220198 0x20,
    // MAX_THREADS 256 1 1).
    let a = asm(
        "!Kernel k\n!Param 4\n!SyncStack 0x220198 0x20\n!MaxThreads 256 1 1\n\
                 !RawInstruction 0x00001de780000000\n!EndKernel\n",
    );
    let k = &a.module.kernels[0];
    assert_eq!(k.sync_stack, Some([0x0022_0198, 0x20]));
    assert_eq!(k.max_threads, Some([256, 1, 1]));
    let bytes = a.write_cubin().unwrap();
    assert_eq!(read_cubin(&bytes).unwrap(), a.module);
    // The two records end `.nv.info.k`, as in NVIDIA's cubins: [4][attr][len] + words.
    let tail: Vec<u8> = [
        &[4u8, 0x05, 12, 0][..],
        &256u32.to_le_bytes(),
        &1u32.to_le_bytes(),
        &1u32.to_le_bytes(),
        &[4, 0x0d, 8, 0],
        &0x0022_0198u32.to_le_bytes(),
        &0x20u32.to_le_bytes(),
    ]
    .concat();
    assert!(bytes.windows(tail.len()).any(|w| w == tail.as_slice()));

    let file = SourceFile::new(
        "t.sass",
        "!Kernel k\n!SyncStack 1\n!MaxThreads 1 2 0x1ffffffff\n!EndKernel\n",
    );
    let errs = assemble_file(&file, &AsmOptions::default()).unwrap_err();
    let text = diag::render(&file, &errs);
    assert!(text.contains("t.sass:2:"), "{text}");
    assert!(
        text.contains("`!SyncStack` takes 2 argument(s), found 1"),
        "{text}"
    );
    assert!(text.contains("t.sass:3:"), "{text}");
    assert!(text.contains("out of range"), "{text}");
}
