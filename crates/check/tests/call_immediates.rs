//! Constants in `call` argument lists are converted to the type of the parameter they bind
//! (ptx-isa-1.1 §6.4.5: an immediate's size "defaults to the size of the instruction source
//! operand"), for `.param` parameters, 1.1 register parameters and indirect calls through a
//! `.callprototype`.

use ir::Operand;

fn lower(text: &str) -> ir::Module {
    let file = diag::SourceFile::new("t.ptx", text);
    let (m, diags) = check::check_source(&file);
    assert!(!diag::has_errors(&diags), "{}", diag::render(&file, &diags));
    m.expect("module")
}

/// The argument list of the only `call` of function `caller`.
fn call_args(m: &ir::Module, caller: &str) -> Vec<Operand> {
    let f = &m.functions[m.function_by_name(caller).unwrap().index()];
    let call = f
        .insts()
        .iter()
        .find(|i| i.op == ir::Opcode::Call)
        .expect("a call");
    let params = call
        .form
        .operands
        .iter()
        .position(|o| o.name == "params")
        .unwrap();
    match &call.operands[params] {
        Operand::List(l) => l.to_vec(),
        other => panic!("not a list: {other:?}"),
    }
}

#[test]
fn param_arguments_take_the_parameter_type() {
    let m = lower(
        ".version 7.0\n.target sm_61\n.address_size 64\n\
         .func f (.param .f32 a, .param .f64 b, .param .u16 c, .param .s32 d) { ret; }\n\
         .visible .entry k() { call.uni f, (1.5, 1.5, 0xFFFF, -2); ret; }\n",
    );
    assert_eq!(
        call_args(&m, "k"),
        vec![
            Operand::Imm(u64::from(1.5f32.to_bits())),
            Operand::Imm(1.5f64.to_bits()),
            Operand::Imm(0xFFFF),
            Operand::Imm(u64::from((-2i32) as u32)),
        ]
    );
}

#[test]
fn a_single_constant_argument_is_a_list() {
    let m = lower(
        ".version 7.0\n.target sm_61\n.address_size 64\n\
         .func f (.param .f32 a) { ret; }\n\
         .visible .entry k() { call.uni f, (0.5); ret; }\n",
    );
    assert_eq!(
        call_args(&m, "k"),
        vec![Operand::Imm(u64::from(0.5f32.to_bits()))]
    );
}

#[test]
fn register_parameters_of_ptx11() {
    let m = lower(
        ".version 1.1\n.target sm_10\n\
         .func (.reg .f32 r) g (.reg .f32 a, .reg .u32 b) { mov.f32 r, a; ret; }\n\
         .entry k { .reg .f32 x; call (x), g, (0.1, 7); exit; }\n",
    );
    assert_eq!(
        call_args(&m, "k"),
        vec![Operand::Imm(u64::from(0.1f32.to_bits())), Operand::Imm(7)]
    );
}

#[test]
fn indirect_calls_use_the_prototype() {
    let m = lower(
        ".version 7.0\n.target sm_61\n.address_size 64\n\
         .func f (.param .f32 a) { ret; }\n\
         .visible .entry k() { .reg .b64 %rd; mov.u64 %rd, f;\n\
         proto: .callprototype _ (.param .f32 a);\n\
         call.uni %rd, (2.5), proto; ret; }\n",
    );
    assert_eq!(
        call_args(&m, "k"),
        vec![Operand::Imm(u64::from(2.5f32.to_bits()))]
    );
}

#[test]
fn a_constant_that_does_not_fit_the_parameter_is_an_error() {
    let file = diag::SourceFile::new(
        "t.ptx",
        ".version 7.0\n.target sm_61\n.address_size 64\n\
         .func f (.param .u32 a) { ret; }\n\
         .visible .entry k() { call.uni f, (1.5); ret; }\n",
    );
    let (_, diags) = check::check_source(&file);
    let errs: Vec<&str> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with("(argument of `call` for a .u32 parameter)"),
        "{}",
        errs[0]
    );
}
