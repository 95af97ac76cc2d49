//! How `ptxvm run` reports a failed run: a text message on stderr, and with `--json` also
//! one `{"error": {...}}` object on stdout, so a script always gets exactly one JSON object.

use crate::exit::Exit;
use exec::{ExecError, Fault};
use serde_json::{json, Map, Value};

/// Which stage failed; the `kind` field of the JSON error object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailKind {
    /// The kernel faulted (exit 3).
    Fault,
    /// The launch is malformed: spec, flags, kernel name, parameters, limits (exit 2).
    Launch,
    /// The PTX does not check, or uses what the executor cannot run (exit 1).
    Check,
    /// A file could not be read or written (exit 1 or 2).
    Io,
}

impl FailKind {
    fn name(self) -> &'static str {
        match self {
            FailKind::Fault => "fault",
            FailKind::Launch => "launch",
            FailKind::Check => "check",
            FailKind::Io => "io",
        }
    }
}

/// A failed run: what to print and which exit code to give.
#[derive(Debug)]
pub struct Failure {
    pub exit: Exit,
    pub kind: FailKind,
    pub message: String,
    /// Source location (PTX file and 1-based line), when there is one.
    pub file: Option<String>,
    pub line: Option<u32>,
    /// Kernel name, for faults and launch errors that know it.
    pub kernel: Option<String>,
    pub fault: Option<Box<Fault>>,
    /// Check diagnostics already rendered on stderr; for JSON, as `diag::to_json` gives them.
    pub diagnostics: Option<Value>,
    /// Whether the text form was already printed on stderr (check diagnostics are).
    pub printed: bool,
    /// `--sanitize`: the findings, as the top-level "sanitizer" field of the JSON object.
    pub sanitizer: Option<Value>,
}

impl Failure {
    pub fn new(exit: Exit, kind: FailKind, message: impl Into<String>) -> Box<Failure> {
        Box::new(Failure {
            exit,
            kind,
            message: message.into(),
            file: None,
            line: None,
            kernel: None,
            fault: None,
            diagnostics: None,
            printed: false,
            sanitizer: None,
        })
    }

    pub fn io(e: crate::input::InputError) -> Box<Failure> {
        Failure::new(e.exit, FailKind::Io, e.message)
    }

    /// An executor error: fault (3), launch error (2) or load error (1, with a location).
    pub fn from_exec(e: ExecError, src: &diag::SourceFile) -> Box<Failure> {
        match e {
            ExecError::Fault(f) => {
                let mut x = Failure::new(Exit::Fault, FailKind::Fault, f.to_string());
                x.file = Some(f.file.clone());
                x.line = Some(f.line);
                x.kernel = Some(f.kernel.clone());
                x.fault = Some(f);
                x
            }
            ExecError::Launch(m) => Failure::new(Exit::Usage, FailKind::Launch, m),
            ExecError::Load(l) => {
                // Rendered like a check diagnostic: source line and caret.
                eprint!("{}", diag::render(src, &[l.to_diagnostic()]));
                let mut x = Failure::new(Exit::Invalid, FailKind::Check, l.message.clone());
                x.file = Some(l.file.clone());
                x.line = Some(l.line);
                x.printed = true;
                x
            }
        }
    }

    /// The `{"error": {...}}` object; absent facts are left out rather than null.
    pub fn to_json(&self) -> Value {
        let mut e = Map::new();
        e.insert("kind".into(), json!(self.kind.name()));
        e.insert("message".into(), json!(self.message));
        if let Some(k) = &self.kernel {
            e.insert("kernel".into(), json!(k));
        }
        if let Some(f) = &self.file {
            e.insert("file".into(), json!(f));
        }
        if let Some(l) = self.line {
            e.insert("line".into(), json!(l));
        }
        if let Some(f) = &self.fault {
            e.insert("ctaid".into(), json!(f.ctaid));
            e.insert("tid".into(), json!(f.tid));
            if let Some((addr, space)) = f.kind.location() {
                e.insert("address".into(), json!(addr));
                e.insert("space".into(), json!(space.name().trim_start_matches('.')));
            }
            if let Some(a) = f.access {
                e.insert("access".into(), json!(a.name()));
            }
        }
        if let Some(d) = &self.diagnostics {
            e.insert("diagnostics".into(), d.clone());
        }
        match &self.sanitizer {
            Some(s) => json!({ "error": e, "sanitizer": s }),
            None => json!({ "error": e }),
        }
    }

    /// Print the failure (stderr text; with `json`, also the object on stdout) and give the
    /// exit code.
    pub fn report(&self, json: bool) -> Exit {
        if !self.printed {
            crate::error(&self.message);
        }
        if json {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", self.to_json());
        }
        self.exit
    }
}
