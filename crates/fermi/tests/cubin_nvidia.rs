//! The reader on a cubin NVIDIA's own ptxas (CUDA 12.9) wrote, from
//! `container-data/ptxas_sm50_scale.ptx`. ptxas cannot target sm_20 any more (sm_50 is its
//! lowest), and the container layout did not change in between, so the test patches the real
//! architecture byte of `e_flags` to sm_20 and checks that everything the PTX source fixes
//! reads back as written there.

use fermi::cubin::{read_cubin, AddressSize, Arch, CubinError, Param};

const CUBIN: &[u8] = include_bytes!("container-data/ptxas_sm50_scale.cubin");

fn as_sm20() -> Vec<u8> {
    let mut b = CUBIN.to_vec();
    // e_flags is at 0x30 in an ELF64 header; its low byte is the real SM (0x32 = sm_50).
    assert_eq!(b[0x30], 0x32);
    b[0x30] = 0x14;
    b
}

#[test]
fn unpatched_sm50_cubin_is_rejected_by_architecture() {
    assert_eq!(
        read_cubin(CUBIN),
        Err(CubinError::UnsupportedArch { sm: 50 })
    );
}

#[test]
fn nvidia_cubin_reads_as_its_ptx_source_says() {
    let m = read_cubin(&as_sm20()).unwrap();
    assert_eq!(m.arch, Arch::Sm20);
    // `.address_size 64`.
    assert_eq!(m.address_size, AddressSize::Bits64);
    assert_eq!(m.kernels.len(), 1);
    let k = &m.kernels[0];
    assert_eq!(k.name, "scale");
    // (.param .u64 out, .param .u32 n, .param .u8 c, .param .f64 d): natural alignment.
    let expected = [(0, 8), (8, 4), (12, 1), (16, 8)].map(|(offset, size)| Param { offset, size });
    assert_eq!(k.params, expected);
    assert_eq!(k.param_size, 24);
    // `.shared .align 4 .b8 buf[1024]`.
    assert_eq!(k.shared_size, 1024);
    // `.local .align 4 .b8 loc[48]`: ptxas puts local arrays in the stack frame.
    assert_eq!((k.frame_size, k.min_stack_size, k.local_size), (48, 48, 0));
    // One `bar.sync 0`.
    assert_eq!(k.bar_count, 1);
    // What readelf shows for NVIDIA's file: sh_info 0x04000006 on .text.scale.
    assert_eq!(k.reg_count, 4);
    assert_eq!(k.code.len() * 8, 192, "st_size of the kernel symbol");
}

/// The `[fmt][attr][u16]…` records of a section, as raw byte strings, found with `object`.
fn records(cubin: &[u8], section: &str) -> Vec<Vec<u8>> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(cubin).unwrap();
    let data = file.section_by_name(section).unwrap().data().unwrap();
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let len = if data[at] == 4 {
            4 + usize::from(u16::from_le_bytes([data[at + 2], data[at + 3]]))
        } else {
            4
        };
        out.push(data[at..at + len].to_vec());
        at += len;
    }
    out
}

#[test]
fn our_parameter_attributes_are_byte_identical_to_ptxas() {
    let theirs = read_cubin(&as_sm20()).unwrap();
    let ours = fermi::cubin::write_cubin(&theirs).unwrap();
    let pick = |cubin: &[u8], attr: u8| -> Vec<Vec<u8>> {
        records(cubin, ".nv.info.scale")
            .into_iter()
            .filter(|r| r[1] == attr)
            .collect()
    };
    // EIATTR_CBANK_PARAM_SIZE carries no architecture-specific value: identical bytes.
    assert_eq!(pick(&ours, 0x19), pick(CUBIN, 0x19));
    // EIATTR_KPARAM_INFO (one per parameter, last first): identical but for the first word,
    // which CUDA 4.1 wrote as 0xffffffff for sm_20 (mgpu-sources cubins) and ptxas 12.9 as 0.
    let (o, t) = (pick(&ours, 0x17), pick(CUBIN, 0x17));
    assert_eq!(o.len(), t.len());
    for (o, t) in o.iter().zip(&t) {
        assert_eq!((&o[..4], &o[8..]), (&t[..4], &t[8..]));
        assert_eq!((&o[4..8], &t[4..8]), (&[0xff; 4][..], &[0; 4][..]));
    }
    // EIATTR_PARAM_CBANK: same size half; the base is 0x140 on sm_50 and 0x20 on sm_20.
    let (o, t) = (&pick(&ours, 0x0a)[0], &pick(CUBIN, 0x0a)[0]);
    assert_eq!(o[..4], t[..4]);
    assert_eq!(o[10..12], t[10..12], "parameter block size");
    assert_eq!(
        (
            u16::from_le_bytes([o[8], o[9]]),
            u16::from_le_bytes([t[8], t[9]])
        ),
        (0x20, 0x140)
    );
}
