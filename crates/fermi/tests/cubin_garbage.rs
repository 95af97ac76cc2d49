//! Property tests: arbitrary modules survive write → read unchanged; arbitrary and mutated
//! bytes never make the reader panic.

use fermi::cubin::{read_cubin, write_cubin, AddressSize, Arch, Kernel, Module, Param};
use proptest::prelude::*;

fn kernel() -> impl Strategy<Value = Kernel> {
    (
        "[A-Za-z_][A-Za-z0-9_]{0,12}",
        prop::collection::vec(any::<u64>(), 0..20),
        prop::collection::vec(1u32..=16, 0..6),
        (any::<u16>(), any::<u16>(), any::<u8>(), 0u8..=0x7f),
        (any::<u32>(), any::<u32>()),
    )
        .prop_map(
            |(name, code, sizes, (shared, local, regs, bars), (frame, stack))| {
                // Parameters packed with natural alignment, as the assembler lays them out.
                let mut params = Vec::new();
                let mut end = 0u32;
                for size in sizes {
                    let align = (1u32 << size.trailing_zeros()).min(8);
                    let offset = end.next_multiple_of(align);
                    params.push(Param { offset, size });
                    end = offset + size;
                }
                Kernel {
                    name,
                    code,
                    params,
                    param_size: end.next_multiple_of(4),
                    shared_size: u32::from(shared),
                    local_size: u32::from(local),
                    reg_count: regs,
                    bar_count: bars,
                    frame_size: frame,
                    min_stack_size: stack,
                    ..Kernel::default()
                }
            },
        )
}

fn module() -> impl Strategy<Value = Module> {
    (
        prop::bool::ANY,
        prop::bool::ANY,
        prop::collection::vec(kernel(), 0..4),
        prop::collection::vec(any::<u8>(), 0..64),
    )
        .prop_map(|(sm21, bits32, mut kernels, constant2)| {
            // Kernel names must be unique.
            for (i, k) in kernels.iter_mut().enumerate() {
                k.name = format!("{}_{i}", k.name);
            }
            Module {
                arch: if sm21 { Arch::Sm21 } else { Arch::Sm20 },
                address_size: if bits32 {
                    AddressSize::Bits32
                } else {
                    AddressSize::Bits64
                },
                kernels,
                constant2,
                constants: Vec::new(),
                globals: Default::default(),
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn modules_round_trip(m in module()) {
        let bytes = write_cubin(&m).unwrap();
        prop_assert_eq!(read_cubin(&bytes).unwrap(), m);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = read_cubin(&bytes);
        let _ = fermi::disasm::disassemble_cubin(&bytes);
    }

    #[test]
    fn mutated_cubins_never_panic(
        m in module(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
    ) {
        let mut bytes = write_cubin(&m).unwrap();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if let Ok(read) = read_cubin(&bytes) {
            // Whatever is read and still writable must round-trip.
            if let Ok(again) = write_cubin(&read) {
                prop_assert_eq!(read_cubin(&again).unwrap(), read);
            }
        }
    }
}
