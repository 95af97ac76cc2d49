//! Typed handles into the arenas of a [`Module`](crate::Module) and its
//! [`Function`](crate::Function)s.
//!
//! Each handle is a plain `u32` index; the arena it indexes is named in its doc comment. Handles
//! are only meaningful for the module that produced them.

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// The arena index as a `usize`.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

handle!(
    /// A register of one function: index into [`Function::regs`](crate::Function::regs).
    /// Registers declared in nested `{ }` blocks get their own ids, so a `RegId` never needs
    /// scope information.
    RegId
);
handle!(
    /// A function or entry: index into [`Module::functions`](crate::Module::functions).
    FuncId
);
handle!(
    /// A variable in an addressable (or texture/surface) state space: index into
    /// [`Module::vars`](crate::Module::vars). Module-scope variables, kernel/function `.param`
    /// parameters and variables declared inside function bodies all live in this one arena.
    VarId
);
handle!(
    /// An instruction of one function: index into [`Function::body`](crate::Function::body).
    /// A label placed after the last instruction resolves to `body.len()`.
    InstIdx
);
handle!(
    /// A call prototype (`.callprototype`): index into
    /// [`Module::prototypes`](crate::Module::prototypes).
    ProtoId
);
