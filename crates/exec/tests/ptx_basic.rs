//! End-to-end kernels written in PTX: check → load → launch → compare with Rust.

mod common;
use common::*;
use exec::Arg;

#[test]
fn vector_add_example_file() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/vector_add.ptx"
    ))
    .unwrap();
    let (mut dev, m) = load("vector_add.ptx", &text);
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| i as f32 * 2.0).collect();
    let pa = upload_u32(&mut dev, &a.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    let pb = upload_u32(&mut dev, &b.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    let pc = dev.alloc(n as u64 * 4).unwrap();
    launch(
        &dev,
        &m,
        "vector_add",
        &cfg([4, 1, 1], [256, 1, 1]),
        &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc), Arg::u32(n as u32)],
    )
    .unwrap();
    let c = read_u32(&dev, pc, n);
    for i in 0..n {
        assert_eq!(f32::from_bits(c[i]), a[i] + b[i], "element {i}");
    }
}
