//! Every PTX opcode the table knows, named by the first word of the instruction.

macro_rules! opcodes {
    ($($variant:ident = $name:literal),+ $(,)?) => {
        /// A PTX opcode: the instruction name up to its first `.` (`shfl` in `shfl.sync.bfly.b32`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode { $($variant),+ }

        impl Opcode {
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant),+];

            pub fn name(self) -> &'static str {
                match self { $(Opcode::$variant => $name),+ }
            }

            pub fn from_name(s: &str) -> Option<Opcode> {
                match s { $($name => Some(Opcode::$variant),)+ _ => None }
            }
        }
    };
}

opcodes! {
    // Integer arithmetic (ptx-integer-arithmetic.md, ptx-isa-1.1 §7.7.1)
    Add = "add", Sub = "sub", Mul = "mul", Mad = "mad", Mul24 = "mul24", Mad24 = "mad24",
    Sad = "sad", Div = "div", Rem = "rem", Abs = "abs", Neg = "neg", Min = "min", Max = "max",
    Popc = "popc", Clz = "clz", Bfind = "bfind", Fns = "fns", Brev = "brev", Bfe = "bfe",
    Bfi = "bfi", Szext = "szext", Bmsk = "bmsk", Dp4a = "dp4a", Dp2a = "dp2a",
    // Extended precision (ptx-extended-precision.md)
    Addc = "addc", Subc = "subc", Madc = "madc",
    // Floating point
    Fma = "fma", Rcp = "rcp", Sqrt = "sqrt", Rsqrt = "rsqrt", Sin = "sin", Cos = "cos",
    Lg2 = "lg2", Ex2 = "ex2", Tanh = "tanh", Copysign = "copysign", Testp = "testp",
    // Comparison and selection
    Set = "set", Setp = "setp", Selp = "selp", Slct = "slct",
    // Logic and shift
    And = "and", Or = "or", Xor = "xor", Not = "not", Cnot = "cnot", Lop3 = "lop3",
    Shl = "shl", Shr = "shr", Shf = "shf",
    // Data movement and conversion
    Mov = "mov", Ld = "ld", Ldu = "ldu", St = "st", Prefetch = "prefetch",
    Prefetchu = "prefetchu", Cvt = "cvt", Cvta = "cvta", Isspacep = "isspacep", Prmt = "prmt",
    // Texture
    Tex = "tex", Txq = "txq",
    // Control flow
    Bra = "bra", Brx = "brx", Call = "call", Ret = "ret", Exit = "exit",
    // Synchronization and communication
    Bar = "bar", Barrier = "barrier", Membar = "membar", Fence = "fence", Atom = "atom",
    Red = "red", Vote = "vote", Shfl = "shfl", Activemask = "activemask", Redux = "redux",
    Match = "match",
    // Miscellaneous
    Nanosleep = "nanosleep", Trap = "trap", Brkpt = "brkpt", Pmevent = "pmevent",
    // Video (ptx-video.md)
    Vadd = "vadd", Vsub = "vsub", Vabsdiff = "vabsdiff", Vmin = "vmin", Vmax = "vmax",
    Vshl = "vshl", Vshr = "vshr", Vmad = "vmad", Vset = "vset",
    Vadd2 = "vadd2", Vsub2 = "vsub2", Vavrg2 = "vavrg2", Vabsdiff2 = "vabsdiff2",
    Vmin2 = "vmin2", Vmax2 = "vmax2", Vset2 = "vset2",
    Vadd4 = "vadd4", Vsub4 = "vsub4", Vavrg4 = "vavrg4", Vabsdiff4 = "vabsdiff4",
    Vmin4 = "vmin4", Vmax4 = "vmax4", Vset4 = "vset4",
    // Asynchronous copies, matrix and tensor-core instructions, elect (PTX ISA 8.x §9.7.9.25,
    // §9.7.14.5, §9.7.13.14)
    Cp = "cp", Ldmatrix = "ldmatrix", Stmatrix = "stmatrix", Movmatrix = "movmatrix",
    Mma = "mma", Elect = "elect",
    // mbarrier objects (PTX ISA 8.x §9.7.13.15)
    Mbarrier = "mbarrier",
    // Warpgroup and fifth-generation tensor-core instructions, checked but not executed
    // (PTX ISA 8.x §9.7.15, §9.7.16)
    Wgmma = "wgmma", Tcgen05 = "tcgen05",
    // Warp-level matrix load/store/multiply-accumulate (PTX ISA 8.x §9.7.14.4)
    Wmma = "wmma",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for op in Opcode::ALL {
            assert!(seen.insert(op.name()), "duplicate {}", op.name());
            assert_eq!(Opcode::from_name(op.name()), Some(*op));
            assert!(!op.name().contains('.'));
        }
    }
}
