//! mbarrier objects and bulk copies (issue 16, third round): NVRTC's producer/consumer
//! pipeline runs, and each mbarrier form does what PTX ISA 8.x §9.7.13.15 says. Expected values
//! are worked out in the test from the kernels' text and the phase rules, not taken from a run.

mod common;
use common::*;
use exec::Arg;

#[test]
fn nvrtc_bulk_copy_pipeline_with_full_and_empty_barriers_runs() {
    let text = std::fs::read_to_string(format!(
        "{}/../../tests/corpus/nvrtc_pipeline_sm90.ptx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (mut dev, m) = load("nvrtc_pipeline_sm90.ptx", &text);
    const TILE: usize = 256;
    const CONSUMERS: usize = 64;
    let tiles = 5usize;
    // Small integers: every partial sum is exact in f32, so the order does not matter.
    let input: Vec<f32> = (0..tiles * TILE).map(|i| (i % 7) as f32).collect();
    let bits: Vec<u32> = input.iter().map(|f| f.to_bits()).collect();
    let pin = upload_u32(&mut dev, &bits);
    let pout = upload_u32(&mut dev, &[0; CONSUMERS]);
    launch(
        &dev,
        &m,
        "pipeline",
        &cfg([1, 1, 1], [96, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout), Arg::u32(tiles as u32)],
    )
    .unwrap();
    let expect: Vec<u32> = (0..CONSUMERS)
        .map(|c| {
            let mut acc = 0.0f32;
            for t in 0..tiles {
                for k in (c..TILE).step_by(CONSUMERS) {
                    acc += input[t * TILE + k] * (t + 1) as f32;
                }
            }
            acc.to_bits()
        })
        .collect();
    assert_eq!(read_u32(&dev, pout, CONSUMERS), expect);
}

#[test]
fn each_mbarrier_form_follows_the_phase_rules() {
    let text = std::fs::read_to_string(format!(
        "{}/../../tests/kernels/mbarrier_forms.ptx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let (mut dev, m) = load("mbarrier_forms.ptx", &text);
    let words: Vec<u32> = (0..8).map(|k| 0x1111_1111 * (k + 1)).collect();
    let pin = upload_u32(&mut dev, &words);
    let pout = upload_u32(&mut dev, &[0; 12]);
    launch(
        &dev,
        &m,
        "mbarrier_forms",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    // The walk through the object (pending/expected/tx-count, phase):
    //   init 2                      -> 2/2/0, phase 0
    //   arrive (state A)            -> 1/2/0; A records phase 0, pending 1      (%r1 = 1)
    //   test_wait A                 -> phase 0 still: false                       (%p1)
    //   arrive.expect_tx 32         -> 0/2/32: the bytes hold the phase open
    //   test_wait.parity 0          -> false                                      (%p2)
    //   bulk copy of 32 bytes       -> tx 0: phase 0 completes -> 2/2/0, phase 1
    //   try_wait A                  -> true                                       (%p3)
    //   test_wait.parity 0          -> true                                       (%p4)
    //   try_wait.parity 1           -> false                                      (%p5)
    //   arrive, count 2             -> 0 pending: phase 1 completes -> phase 0
    //   test_wait.parity 1          -> true                                       (%p6)
    //   arrive_drop                 -> 1/1/0
    //   arrive.noComplete 1 (B)     -> 0/1/0, phase 0 stays open
    //   test_wait B                 -> false                                      (%p7)
    //   expect_tx 16, complete_tx 16 -> tx back to 0 with nothing pending: phase 1, 1/1/0
    //   test_wait B                 -> true                                       (%p8)
    //   arrive (state C)            -> completes again; C recorded pending 0    (%r2 = 0)
    // Predicate bits: p3, p4, p6, p8 -> 4 + 8 + 32 + 128 = 172.
    // The bulk copies: pin's 32 bytes to shared, then shared back to pout.
    let mut expect = words.clone();
    expect.extend([1, 0, 172, 172]);
    assert_eq!(read_u32(&dev, pout, 12), expect);
}
