//! `set setp selp slct` against Tables 12–15 and 29–32 of `ptx-isa-1.1.txt`, transcribed here.

use ops::cmp::{self, BoolOp, CmpOp};
use proptest::prelude::*;

const ALL: [CmpOp; 18] = [
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Lt,
    CmpOp::Le,
    CmpOp::Gt,
    CmpOp::Ge,
    CmpOp::Lo,
    CmpOp::Ls,
    CmpOp::Hi,
    CmpOp::Hs,
    CmpOp::Equ,
    CmpOp::Neu,
    CmpOp::Ltu,
    CmpOp::Leu,
    CmpOp::Gtu,
    CmpOp::Geu,
    CmpOp::Num,
    CmpOp::Nan,
];

/// Tables 13–15, row by row ("Meaning" column).
fn table_float(op: CmpOp, a: f64, b: f64) -> bool {
    let n = a.is_nan() || b.is_nan();
    match op {
        CmpOp::Eq => a == b && !a.is_nan() && !b.is_nan(),
        CmpOp::Ne => a != b && !a.is_nan() && !b.is_nan(),
        CmpOp::Lt => a < b && !a.is_nan() && !b.is_nan(),
        CmpOp::Le => a <= b && !a.is_nan() && !b.is_nan(),
        CmpOp::Gt => a > b && !a.is_nan() && !b.is_nan(),
        CmpOp::Ge => a >= b && !a.is_nan() && !b.is_nan(),
        CmpOp::Equ => a == b || n,
        CmpOp::Neu => a != b || n,
        CmpOp::Ltu => a < b || n,
        CmpOp::Leu => a <= b || n,
        CmpOp::Gtu => a > b || n,
        CmpOp::Geu => a >= b || n,
        CmpOp::Num => !a.is_nan() && !b.is_nan(),
        CmpOp::Nan => n,
        // Unsigned spellings are not float operators; the library treats them as lt/le/gt/ge.
        CmpOp::Lo => a < b && !n,
        CmpOp::Ls => a <= b && !n,
        CmpOp::Hi => a > b && !n,
        CmpOp::Hs => a >= b && !n,
    }
}

/// Table 12 on i128 (both signed and unsigned operands fit exactly).
fn table_int(op: CmpOp, a: i128, b: i128) -> bool {
    match op {
        CmpOp::Eq | CmpOp::Equ => a == b,
        CmpOp::Ne | CmpOp::Neu => a != b,
        CmpOp::Lt | CmpOp::Lo | CmpOp::Ltu => a < b,
        CmpOp::Le | CmpOp::Ls | CmpOp::Leu => a <= b,
        CmpOp::Gt | CmpOp::Hi | CmpOp::Gtu => a > b,
        CmpOp::Ge | CmpOp::Hs | CmpOp::Geu => a >= b,
        CmpOp::Num => true,
        CmpOp::Nan => false,
    }
}

fn floats() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        prop::sample::select(vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-40,
            -1e-40
        ]),
    ]
}

fn ints() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        prop::sample::select(vec![
            0i64,
            1,
            -1,
            i64::MIN,
            i64::MAX,
            i32::MIN.into(),
            i32::MAX.into(),
            1 << 32
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn float_ops_match_tables(a in floats(), b in floats()) {
        for op in ALL {
            prop_assert_eq!(cmp::cmp_f32(op, a, b, false), table_float(op, a.into(), b.into()), "{:?}", op);
            let (x, y) = (f64::from(a) * 1e300, f64::from(b));
            prop_assert_eq!(cmp::cmp_f64(op, x, y), table_float(op, x, y), "{:?}", op);
            let fl = |v: f32| if v.is_subnormal() { 0.0 } else { f64::from(v) };
            prop_assert_eq!(cmp::cmp_f32(op, a, b, true), table_float(op, fl(a), fl(b)), "ftz {:?}", op);
        }
    }

    #[test]
    fn int_ops_match_table_12(a in ints(), b in ints()) {
        for op in ALL {
            prop_assert_eq!(cmp::cmp_signed(op, a, b), table_int(op, a.into(), b.into()));
            let (ua, ub) = (a as u64, b as u64);
            prop_assert_eq!(cmp::cmp_unsigned(op, ua, ub), table_int(op, ua.into(), ub.into()));
            // 32-bit operands widened per signedness.
            let (sa, sb) = (a as i32, b as i32);
            prop_assert_eq!(cmp::cmp_signed(op, sa.into(), sb.into()), table_int(op, sa.into(), sb.into()));
        }
    }
}

#[test]
fn setp_pseudo_code() {
    // Table 30: t = (a CmpOp b); p = BoolOp(t, c); q = BoolOp(!t, c).
    for t in [false, true] {
        assert_eq!(cmp::setp(t, None), (t, !t));
        for c in [false, true] {
            for (op, f) in [
                (
                    BoolOp::And,
                    (|x: bool, y: bool| x && y) as fn(bool, bool) -> bool,
                ),
                (BoolOp::Or, |x, y| x || y),
                (BoolOp::Xor, |x, y| x != y),
            ] {
                assert_eq!(cmp::setp(t, Some((op, c))), (f(t, c), f(!t, c)));
                assert_eq!(cmp::bool_op(op, t, c), f(t, c));
            }
        }
    }
    // Example `setp.lt.and.s32 p|q,a,b,r` with a=1, b=2, r=true: p = true, q = false.
    let t = cmp::cmp_signed(CmpOp::Lt, 1, 2);
    assert_eq!(cmp::setp(t, Some((BoolOp::And, true))), (true, false));
    // §7.2 `setp.s32.lt p|q, a, b; // p = (a < b); q = !(a < b);`
    assert_eq!(
        cmp::setp(cmp::cmp_signed(CmpOp::Lt, 5, 3), None),
        (false, true)
    );
}

#[test]
fn set_destination_values() {
    // Table 29: 1.0f for float destinations, 0xFFFFFFFF for integers, else 0.
    assert_eq!(cmp::set_bits(true, true), 0x3f80_0000);
    assert_eq!(cmp::set_bits(true, false), 0xffff_ffff);
    assert_eq!(cmp::set_bits(false, true), 0);
    assert_eq!(cmp::set_bits(false, false), 0);
    // `set.lt.and.f32.s32 d,a,b,r` with a < b and r false → 0.
    let t = cmp::cmp_signed(CmpOp::Lt, -4, 7);
    assert_eq!(cmp::set_bits(cmp::bool_op(BoolOp::And, t, false), true), 0);
    // `set.eq.u32.u32 d,i,n` with i == n.
    assert_eq!(
        cmp::set_bits(cmp::cmp_unsigned(CmpOp::Eq, 9, 9), false),
        0xffff_ffff
    );
}

#[test]
fn unsigned_lt_is_unsigned() {
    // PTX 1.1 Table 78: lt/le/gt/ge may be used with unsigned integers.
    assert!(cmp::cmp_unsigned(CmpOp::Lt, 1, u64::MAX));
    assert!(!cmp::cmp_signed(CmpOp::Lt, 1, -1));
    assert!(cmp::cmp_unsigned(CmpOp::Hi, 0x8000_0000, 1));
}

#[test]
fn selp_and_slct() {
    // Table 31: d = (c == 1) ? a : b.
    assert_eq!(cmp::selp(1u32, 2, true), 1);
    assert_eq!(cmp::selp(1u32, 2, false), 2);
    assert_eq!(cmp::selp(1.5f64, 2.5, false), 2.5);
    // Table 32: d = (c >= 0) ? a : b.
    assert_eq!(cmp::slct_s32(10u32, 20, 0), 10);
    assert_eq!(cmp::slct_s32(10u32, 20, -1), 20);
    assert_eq!(cmp::slct_s32(10u64, 20, i32::MIN), 20);
    assert_eq!(cmp::slct_f32(10u32, 20, 0.0, false), 10);
    assert_eq!(cmp::slct_f32(10u32, 20, -0.0, false), 10);
    assert_eq!(cmp::slct_f32(10u32, 20, -1.0, false), 20);
    // "If operand c is NaN, the comparison is unordered and operand b is selected."
    assert_eq!(cmp::slct_f32(10u32, 20, f32::NAN, true), 20);
    assert_eq!(cmp::slct_f32(10u32, 20, -f32::NAN, false), 20);
    // "if operand c is a denorm, it is flushed to zero, resulting in selection of operand a."
    assert_eq!(cmp::slct_f32(10u32, 20, -1e-40, true), 10);
    assert_eq!(cmp::slct_f32(10u32, 20, 1e-40, true), 10);
    // Modern slct without .ftz: a negative subnormal is below zero.
    assert_eq!(cmp::slct_f32(10u32, 20, -1e-40, false), 20);
    // "For .f32 data selections, denorm results are flushed to zero."
    assert_eq!(cmp::slct_data_f32(-1e-40, true).to_bits(), 0x8000_0000);
    assert_eq!(cmp::slct_data_f32(0.5, true), 0.5);
    assert_eq!(cmp::slct_data_f32(1e-40, false), 1e-40);
}
