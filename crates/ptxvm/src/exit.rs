/// The process exit codes every subcommand uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    Ok = 0,
    /// The input (PTX, SASS, cubin, launch spec contents) is invalid.
    Invalid = 1,
    /// Bad command line, unreadable or unwritable file.
    Usage = 2,
    /// A kernel faulted at run time.
    Fault = 3,
}
