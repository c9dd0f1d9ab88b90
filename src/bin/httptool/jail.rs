//! The one way the command line reads a file another input names: a file part of a call
//! (`--files DIR`) or a document an OpenAPI `$ref` points to (the document's folder).
//!
//! A name is a path relative to one folder; it is made canonical (symbolic links and `..`
//! taken out) and must still be under the folder, and be a regular file (a FIFO would block
//! the read until something writes to it, a device may never end). What is read counts
//! against a byte budget: each file on its own, or all files of the jail together.

use std::fs::File;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use crate::input;

/// How many bytes a jail reads.
pub enum Budget {
    /// Each file at most this many bytes (a server sends files for as long as it runs).
    EachFile(u64),
    /// All files together at most this many bytes (the documents of one import): the bytes
    /// still left.
    AllFiles(Mutex<u64>),
}

/// The files under one folder.
pub struct Jail {
    root: PathBuf,
    /// The folder as messages name it (`the folder named with --files`).
    name: &'static str,
    budget: Budget,
}

impl Jail {
    /// The folder `dir`, which must exist.
    ///
    /// # Errors
    ///
    /// Why the folder cannot be used, for a message.
    pub fn new(dir: &Path, name: &'static str, budget: Budget) -> Result<Jail, String> {
        let root = dir.canonicalize().map_err(|e| e.to_string())?;
        if !root.is_dir() {
            return Err("not a folder".to_string());
        }
        Ok(Jail { root, name, budget })
    }

    /// The canonical path of `relative` under the folder, a regular file.
    pub fn path(&self, relative: &str) -> Result<PathBuf, String> {
        let plain = Path::new(relative)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if relative.is_empty() || !plain {
            return Err(format!(
                "give a path relative to {}, without '..'",
                self.name
            ));
        }
        let path = self
            .root
            .join(relative)
            .canonicalize()
            .map_err(|_| format!("no such file under {}", self.name))?;
        // A symbolic link may lead anywhere: what counts is where it ends.
        if !path.starts_with(&self.root) {
            return Err(format!("the file is outside {}", self.name));
        }
        if !path.is_file() {
            return Err("not a file".to_string());
        }
        Ok(path)
    }

    /// `path` (canonical, under the folder) relative to the folder, with `/` between its
    /// parts: the one name of a file, however it was reached.
    pub fn relative(&self, path: &Path) -> Result<String, String> {
        let relative = path
            .strip_prefix(&self.root)
            .map_err(|_| format!("the file is outside {}", self.name))?;
        let mut parts = Vec::new();
        for part in relative.components() {
            match part.as_os_str().to_str() {
                Some(part) => parts.push(part),
                None => return Err("the file's name is not UTF-8".to_string()),
            }
        }
        Ok(parts.join("/"))
    }

    /// The bytes of `path` (from [`path`](Jail::path)), within the budget.
    pub fn read(&self, path: &Path) -> Result<Vec<u8>, String> {
        let file = File::open(path).map_err(|e| format!("cannot read it: {}", e))?;
        // Checked again on the file opened: the name may have been replaced since.
        match file.metadata() {
            Ok(meta) if meta.is_file() => {}
            _ => return Err("not a file".to_string()),
        }
        match &self.budget {
            Budget::EachFile(max) => {
                let bytes = read_within(file, *max)?;
                if bytes.len() as u64 > *max {
                    return Err(format!(
                        "it is larger than the input limit of {} bytes ({})",
                        max,
                        input::MAX_INPUT_OPTION
                    ));
                }
                Ok(bytes)
            }
            Budget::AllFiles(left) => {
                // One reader at a time: the budget is taken as the file is read.
                let mut left = left.lock().unwrap_or_else(|e| e.into_inner());
                let bytes = read_within(file, *left)?;
                if bytes.len() as u64 > *left {
                    return Err(format!(
                        "the files read exceed the input limit ({} N counts every file of the import together)",
                        input::MAX_INPUT_OPTION
                    ));
                }
                *left -= bytes.len() as u64;
                Ok(bytes)
            }
        }
    }
}

/// At most `max + 1` bytes of `file`.
fn read_within(file: File, max: u64) -> Result<Vec<u8>, String> {
    input::read_capped(file, max).map_err(|e| format!("cannot read it: {}", e))
}
