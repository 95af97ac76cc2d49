//! The sweep driver: runs one check over many inputs on every core, keeps the largest error of
//! each error class (with the input that produced it) and the first few failures.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// One kind of error a function's check measures, with the bound it must stay within.
pub struct Class {
    /// What is measured and where, e.g. "absolute error, |a| ≤ 2π".
    pub name: &'static str,
    /// The largest error allowed, in the unit `name` states.
    pub bound: f64,
    /// Where the bound comes from (the manual's passage, or why ptxvm uses a relaxed one).
    pub source: &'static str,
}

/// What one input measured: an error of `class`, or nothing (a special value checked exactly).
pub struct Measure {
    pub class: usize,
    pub err: f64,
}

/// A check of one input (a 32-bit pattern; its meaning is the check's): `Err` describes a
/// result that breaks the manual's special-value table or flushing rules.
pub type Check = fn(u32) -> Result<Option<Measure>, String>;

/// The largest error seen in one class.
#[derive(Clone, Copy, Default)]
pub struct Worst {
    pub err: f64,
    pub input: u32,
    pub count: u64,
}

/// Result of a sweep.
pub struct Summary {
    pub worst: Vec<Worst>,
    pub failures: u64,
    pub first_failures: Vec<String>,
}

/// Inputs `input(0) .. input(n - 1)`, in blocks handed out to one thread per core.
pub fn sweep(
    classes: &[Class],
    check: Check,
    n: u64,
    input: impl Fn(u64) -> u32 + Sync,
) -> Summary {
    const BLOCK: u64 = 1 << 16;
    let next = AtomicU64::new(0);
    let failures = AtomicU64::new(0);
    let first_failures = Mutex::new(Vec::new());
    let worst = Mutex::new(vec![Worst::default(); classes.len()]);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut local = vec![Worst::default(); classes.len()];
                loop {
                    let start = next.fetch_add(BLOCK, Ordering::Relaxed);
                    if start >= n {
                        break;
                    }
                    for i in start..(start + BLOCK).min(n) {
                        let x = input(i);
                        let problem = match check(x) {
                            Ok(None) => None,
                            Ok(Some(m)) => {
                                let w = &mut local[m.class];
                                w.count += 1;
                                if m.err > w.err || m.err.is_nan() {
                                    *w = Worst {
                                        err: m.err,
                                        input: x,
                                        count: w.count,
                                    };
                                }
                                let c = &classes[m.class];
                                // A NaN error fails too.
                                let within = m.err <= c.bound;
                                (!within).then(|| {
                                    format!("{}: error {:e} > bound {:e}", c.name, m.err, c.bound)
                                })
                            }
                            Err(e) => Some(e),
                        };
                        if let Some(p) = problem {
                            failures.fetch_add(1, Ordering::Relaxed);
                            let mut f = first_failures.lock().unwrap();
                            if f.len() < 8 {
                                f.push(format!("input {x:#010x}: {p}"));
                            }
                        }
                    }
                }
                let mut w = worst.lock().unwrap();
                for (g, l) in w.iter_mut().zip(local) {
                    let count = g.count + l.count;
                    if l.err > g.err || l.err.is_nan() {
                        *g = l;
                    }
                    g.count = count;
                }
            });
        }
    });
    Summary {
        worst: worst.into_inner().unwrap(),
        failures: failures.into_inner(),
        first_failures: first_failures.into_inner().unwrap(),
    }
}

/// `n` inputs spread over all 2^32 patterns: the top bits step evenly (every sign, exponent and
/// leading mantissa bits), the low bits are a fixed pseudo-random function of the index.
pub fn spread(n: u64) -> impl Fn(u64) -> u32 + Sync {
    let shift = 32 - n.trailing_zeros().min(32);
    move |i| {
        let mix = (i
            .wrapping_add(0x9e37_79b9)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            >> 32) as u32;
        let low = if shift == 0 { 0 } else { mix >> (32 - shift) };
        ((i << shift) as u32) | low
    }
}

/// Every 32-bit pattern.
pub fn exhaustive(i: u64) -> u32 {
    i as u32
}

/// Runs the sweep, prints one line per class (`cargo test -- --nocapture` shows them) and fails
/// with the first failures if any input broke a bound or a rule.
pub fn run_and_assert(
    what: &str,
    classes: &[Class],
    check: Check,
    n: u64,
    input: impl Fn(u64) -> u32 + Sync,
) {
    let started = std::time::Instant::now();
    let s = sweep(classes, check, n, input);
    println!(
        "{what}: {n} inputs in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    for (c, w) in classes.iter().zip(&s.worst) {
        println!(
            "  {}: max {:e} (2^{:.2}) at {:#010x} over {} inputs; bound {:e} (2^{:.2}), {}",
            c.name,
            w.err,
            w.err.log2(),
            w.input,
            w.count,
            c.bound,
            c.bound.log2(),
            c.source
        );
    }
    for (c, w) in classes.iter().zip(&s.worst) {
        assert!(w.count > 0, "{what}: no input measured `{}`", c.name);
    }
    assert!(
        s.failures == 0,
        "{what}: {} inputs fail; first: {:#?}",
        s.failures,
        s.first_failures
    );
}
