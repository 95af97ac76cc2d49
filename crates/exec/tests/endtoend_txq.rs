//! `txq` on textures bound at launch: extents from the binding, and the fixed answers the
//! executor's texture model gives (raw unsigned 32-bit elements, unnormalised coordinates, no
//! arrays, one mipmap level, one sample); an unbound texture faults.

mod endtoend_common;
use endtoend_common::*;
use exec::{Arg, ExecError, FaultKind, LaunchConfig, Texture};

fn tex(dims: [u32; 3], channels: u32) -> Texture {
    Texture {
        dims,
        channels,
        data: vec![0; (dims.iter().product::<u32>() * channels) as usize],
    }
}

#[test]
fn txq_reports_the_bound_textures() {
    let (mut dev, m) = load_kernel("txq.ptx");
    let out = dev.alloc(32 * 4).unwrap();
    let cfg = LaunchConfig {
        textures: vec![Some(tex([37, 5, 3], 4)), Some(tex([9, 1, 1], 2))],
        ..cfg([1, 1, 1], [1, 1, 1])
    };
    dev.launch(&m, "txq_all", &cfg, &[Arg::ptr(out)], &opts(1))
        .unwrap();
    let got: Vec<u32> = download(&dev, out, 32);
    // width, height, depth, channel_data_type, channel_order, normalized, array, mips, samples
    assert_eq!(&got[0..9], &[37, 5, 3, 1, 4, 0, 0, 1, 1]);
    assert_eq!(&got[16..25], &[9, 1, 1, 1, 2, 0, 0, 1, 1]);
}

#[test]
fn txq_on_an_unbound_texture_faults() {
    let (mut dev, m) = load_kernel("txq.ptx");
    let out = dev.alloc(32 * 4).unwrap();
    let cfg = LaunchConfig {
        textures: vec![None, Some(tex([2, 2, 1], 1))],
        ..cfg([1, 1, 1], [1, 1, 1])
    };
    let err = dev
        .launch(&m, "txq_all", &cfg, &[Arg::ptr(out)], &opts(1))
        .expect_err("texture 0 is unbound");
    let ExecError::Fault(f) = err else {
        panic!("expected a fault: {err}")
    };
    assert_eq!(f.kind, FaultKind::UnboundTexture { tex: 0 });
    assert_eq!(
        f.line,
        line_of(&kernel_text("txq.ptx"), "txq.width.b32 \t%r1, [ta]")
    );
}
