//! The `Tool` trait, closure tools, and `ToolRegistry`, which dispatches a model's calls.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use super::call::{ToolCall, DEFAULT_MAX_ARGUMENT_BYTES};
use super::context::CallContext;
use super::error::{Error, ErrorKind};
use super::output::{ToolOutput, DEFAULT_MAX_OUTPUT_BYTES};
use super::spec::ToolSpec;
use super::suggest::{quote, unknown_name_message};
use crate::json::Map;

/// Anything a model can call.
///
/// The registry has already read the arguments into an object (see
/// [`parse_arguments`](super::parse_arguments)) and hands it over by value, so a tool can
/// move strings out of it without copying. `context` holds the host's per-call values. A tool
/// reports failure in its [`ToolOutput`], never by panicking (the registry catches a panic,
/// but see [`ToolRegistry::call_with`]).
///
/// The trait is object safe; the registry keeps tools as `Arc<dyn Tool>` and calls them from
/// any thread, hence `Send + Sync`.
///
/// # Examples
///
/// ```
/// use httptool::json::{Json, Map};
/// use httptool::tool::{CallContext, ErrorKind, Tool, ToolOutput, ToolSpec};
///
/// struct Echo(ToolSpec);
///
/// impl Tool for Echo {
///     fn spec(&self) -> &ToolSpec {
///         &self.0
///     }
///     fn call(&self, mut arguments: Map, _context: &CallContext) -> ToolOutput {
///         // `Json` implements `Drop`, so take strings out with `into_string`.
///         match arguments.remove("text").and_then(Json::into_string) {
///             Some(text) => ToolOutput::success(text),
///             None => ToolOutput::error(ErrorKind::MissingParameter, "missing parameter 'text'"),
///         }
///     }
/// }
/// ```
pub trait Tool: Send + Sync {
    /// What the model reads about this tool. Its name is the registry key.
    fn spec(&self) -> &ToolSpec;

    /// Runs one call with the arguments object and the host's per-call context.
    fn call(&self, arguments: Map, context: &CallContext) -> ToolOutput;

    /// Where the tool sends its request, for a [`Catalog`](super::Catalog) to show and rank
    /// by: method, path template and tags. `None` (the default) for a tool that is not an
    /// HTTP operation; [`HttpTool`](crate::plugin::HttpTool) gives its endpoint's.
    fn operation(&self) -> Option<Operation<'_>> {
        None
    }
}

/// An HTTP tool's method, path template and tags, as [`Tool::operation`] reports them.
///
/// Plain strings, so the tool layer needs nothing of the HTTP layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operation<'a> {
    /// The method, upper case (`GET`).
    pub method: &'a str,
    /// The path template (`/v1/users/{id}`).
    pub path: &'a str,
    /// Words that group the operation with others (OpenAPI `tags`).
    pub tags: &'a [String],
}

impl<T: Tool + ?Sized> Tool for Box<T> {
    fn spec(&self) -> &ToolSpec {
        (**self).spec()
    }

    fn call(&self, arguments: Map, context: &CallContext) -> ToolOutput {
        (**self).call(arguments, context)
    }

    fn operation(&self) -> Option<Operation<'_>> {
        (**self).operation()
    }
}

impl<T: Tool + ?Sized> Tool for Arc<T> {
    fn spec(&self) -> &ToolSpec {
        (**self).spec()
    }

    fn call(&self, arguments: Map, context: &CallContext) -> ToolOutput {
        (**self).call(arguments, context)
    }

    fn operation(&self) -> Option<Operation<'_>> {
        (**self).operation()
    }
}

/// A tool made of a spec and a plain Rust function or closure.
///
/// The function returns anything that converts into a [`ToolOutput`]: a `ToolOutput`, a
/// `String`, a [`Json`](crate::json::Json) value (sent as text and kept as the structured
/// result), or a `Result` of those whose `Err` (anything `Display`) becomes an
/// [`ErrorKind::ToolFailed`] output.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::json::Map;
/// use httptool::tool::{CallContext, FnTool, ToolCall, ToolRegistry, ToolSpec};
///
/// let spec = ToolSpec::new(
///     "add",
///     "Adds two integers",
///     json!({
///         "type": "object",
///         "properties": { "a": { "type": "integer" }, "b": { "type": "integer" } },
///         "required": ["a", "b"]
///     }),
/// )?;
/// let add = FnTool::new(spec, |args: Map, _: &CallContext| {
///     let a = args.get("a").and_then(|v| v.as_i64()).ok_or("'a' must be an integer")?;
///     let b = args.get("b").and_then(|v| v.as_i64()).ok_or("'b' must be an integer")?;
///     Ok::<_, &str>(json!(a + b))
/// });
/// let mut registry = ToolRegistry::new();
/// registry.add(add)?;
/// let out = registry.call(&ToolCall::new("1", "add", r#"{"a": 2, "b": 3}"#));
/// assert_eq!(out.text(), "5");
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub struct FnTool<F> {
    spec: ToolSpec,
    function: F,
}

impl<F, R> FnTool<F>
where
    F: Fn(Map, &CallContext) -> R + Send + Sync,
    R: Into<ToolOutput>,
{
    /// A tool that answers calls with `function`.
    pub fn new(spec: ToolSpec, function: F) -> FnTool<F> {
        FnTool { spec, function }
    }
}

impl<F, R> Tool for FnTool<F>
where
    F: Fn(Map, &CallContext) -> R + Send + Sync,
    R: Into<ToolOutput>,
{
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call(&self, arguments: Map, context: &CallContext) -> ToolOutput {
        (self.function)(arguments, context).into()
    }
}

impl<F> fmt::Debug for FnTool<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnTool")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

/// The table of tools an agent offers a model, and the dispatcher of the model's calls.
///
/// - Names are unique: adding a name that is already there is an error, never an overwrite.
/// - [`specs`](ToolRegistry::specs) lists tools in the order they were added, so the tool
///   list sent to a model is the same on every run.
/// - Dispatch is a hash lookup: its cost does not grow with the number of tools.
/// - [`call`](ToolRegistry::call) never panics and always returns an output the model can
///   read: an unknown tool (with the closest name suggested), arguments that are not a JSON
///   object or are over [`max_argument_bytes`](ToolRegistry::max_argument_bytes), and the
///   tool's own failures all come back as `is_error` outputs.
/// - `ToolRegistry` is `Send + Sync` and calls take `&self`: share one behind an `Arc` and
///   call it from many threads without a lock. `Clone` is cheap (tools are shared, not
///   copied), so an agent can extend a base registry per user.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::json::Map;
/// use httptool::tool::{CallContext, ErrorKind, ToolCall, ToolRegistry, ToolSpec};
///
/// let mut registry = ToolRegistry::new();
/// let spec = ToolSpec::new(
///     "get_weather",
///     "Current weather for a city",
///     json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
/// )?;
/// registry.add_fn(spec, |args: Map, _: &CallContext| {
///     format!("sunny in {}", args.get("city").and_then(|c| c.as_str()).unwrap_or("?"))
/// })?;
///
/// let out = registry.call(&ToolCall::new("call_1", "get_weather", r#"{"city":"Paris"}"#));
/// assert_eq!(out.text(), "sunny in Paris");
///
/// let out = registry.call(&ToolCall::new("call_2", "get_wether", "{}"));
/// assert_eq!(out.error_kind(), Some(ErrorKind::UnknownTool));
/// assert_eq!(
///     out.text(),
///     "unknown tool 'get_wether'; did you mean 'get_weather'? accepted: get_weather"
/// );
/// # Ok::<(), httptool::tool::Error>(())
/// ```
#[derive(Clone)]
pub struct ToolRegistry {
    tools: Vec<Arc<dyn Tool>>,
    index: HashMap<String, usize>,
    max_argument_bytes: usize,
    max_output_bytes: usize,
}

impl ToolRegistry {
    /// An empty registry with the default limits.
    pub fn new() -> ToolRegistry {
        ToolRegistry {
            tools: Vec::new(),
            index: HashMap::new(),
            max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }

    /// The largest arguments text, in bytes, a call may carry; a longer one is an
    /// [`ErrorKind::InvalidArguments`] output. Defaults to [`DEFAULT_MAX_ARGUMENT_BYTES`]
    /// (1 MiB).
    #[must_use]
    pub fn max_argument_bytes(mut self, bytes: usize) -> ToolRegistry {
        self.max_argument_bytes = bytes;
        self
    }

    /// The most text, in bytes, a call hands back to the model; longer text is cut by
    /// [`cap_text`](super::cap_text), with a marker saying how much was left out. Defaults to
    /// [`DEFAULT_MAX_OUTPUT_BYTES`] (64 KiB).
    #[must_use]
    pub fn max_output_bytes(mut self, bytes: usize) -> ToolRegistry {
        self.max_output_bytes = bytes;
        self
    }

    /// Adds a tool.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::DuplicateName`] when a tool with the same name is already registered;
    /// the registry is left unchanged.
    pub fn add(&mut self, tool: impl Tool + 'static) -> Result<(), Error> {
        self.add_arc(Arc::new(tool))
    }

    /// Adds a boxed tool.
    ///
    /// # Errors
    ///
    /// As [`add`](ToolRegistry::add).
    pub fn add_boxed(&mut self, tool: Box<dyn Tool>) -> Result<(), Error> {
        self.add_arc(Arc::from(tool))
    }

    /// Adds a shared tool (the same tool may sit in several registries).
    ///
    /// # Errors
    ///
    /// As [`add`](ToolRegistry::add).
    pub fn add_arc(&mut self, tool: Arc<dyn Tool>) -> Result<(), Error> {
        self.add_all(std::iter::once(tool))
    }

    /// Adds a function or closure as a tool; see [`FnTool`].
    ///
    /// # Errors
    ///
    /// As [`add`](ToolRegistry::add).
    pub fn add_fn<F, R>(&mut self, spec: ToolSpec, function: F) -> Result<(), Error>
    where
        F: Fn(Map, &CallContext) -> R + Send + Sync + 'static,
        R: Into<ToolOutput> + 'static,
    {
        self.add(FnTool::new(spec, function))
    }

    /// Adds several tools at once: all of them, or none when a name is already registered or
    /// appears twice among them. The plugin layer adds a plugin's endpoints this way.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::DuplicateName`], naming the first duplicate; the registry is left
    /// unchanged.
    pub fn add_all<I>(&mut self, tools: I) -> Result<(), Error>
    where
        I: IntoIterator<Item = Arc<dyn Tool>>,
    {
        self.add_vec(tools.into_iter().collect())
    }

    /// [`add_all`](ToolRegistry::add_all) past the collecting: one copy of the checks, not
    /// one per iterator type (build cost, see `design::performance`).
    fn add_vec(&mut self, tools: Vec<Arc<dyn Tool>>) -> Result<(), Error> {
        let mut batch = HashSet::with_capacity(tools.len());
        for tool in &tools {
            let name = tool.spec().name();
            if self.index.contains_key(name) || !batch.insert(name) {
                return Err(Error::new(
                    ErrorKind::DuplicateName,
                    format!(
                        "a tool named {} is already registered; tool names must be unique",
                        quote(name)
                    ),
                ));
            }
        }
        self.tools.reserve(tools.len());
        self.index.reserve(tools.len());
        for tool in tools {
            self.index
                .insert(String::from(tool.spec().name()), self.tools.len());
            self.tools.push(tool);
        }
        Ok(())
    }

    /// The argument and output limits, for a registry built over this one (the catalog).
    pub(crate) fn limits(&self) -> (usize, usize) {
        (self.max_argument_bytes, self.max_output_bytes)
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether the registry holds no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Whether a tool named `name` is registered.
    pub fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The tool named `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.index.get(name).and_then(|&i| self.tools.get(i))
    }

    /// The tools, in the order they were added.
    pub fn tools(&self) -> impl Iterator<Item = &Arc<dyn Tool>> {
        self.tools.iter()
    }

    /// The specs, in the order the tools were added, without copying them (for rendering).
    pub fn iter_specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.tools.iter().map(|tool| tool.spec())
    }

    /// The tool names, in the order they were added.
    pub fn names(&self) -> impl Iterator<Item = &str> + Clone {
        self.tools.iter().map(|tool| tool.spec().name())
    }

    /// Copies of the specs, in the order the tools were added.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.iter_specs().cloned().collect()
    }

    /// Runs a call with an empty [`CallContext`]; see [`call_with`](ToolRegistry::call_with).
    pub fn call(&self, call: &ToolCall) -> ToolOutput {
        self.call_with(call, &CallContext::new())
    }

    /// Runs a call with the host's per-call values.
    ///
    /// Looks the tool up by name, reads the arguments (see
    /// [`parse_arguments`](super::parse_arguments); arguments that arrived parsed are
    /// cloned, use [`call_owned`](ToolRegistry::call_owned) to move them), runs the tool and
    /// caps the text at [`max_output_bytes`](ToolRegistry::max_output_bytes).
    ///
    /// Never panics. A tool that panics yields an [`ErrorKind::Internal`] output that does not
    /// repeat the panic message (it may hold anything). Catching needs the default
    /// `panic = "unwind"`; with `panic = "abort"` the process ends as usual, and the panic hook
    /// still prints the panic either way.
    pub fn call_with(&self, call: &ToolCall, context: &CallContext) -> ToolOutput {
        let tool = match self.lookup(call.name()) {
            Ok(tool) => tool,
            Err(output) => return output,
        };
        match call.parse_arguments(self.max_argument_bytes) {
            Ok(arguments) => self.run(tool, arguments, context),
            Err(err) => err.into(),
        }
    }

    /// Runs a call it takes by value, so arguments that arrived parsed move to the tool
    /// without a copy. Otherwise as [`call_with`](ToolRegistry::call_with).
    pub fn call_owned(&self, call: ToolCall, context: &CallContext) -> ToolOutput {
        let tool = match self.lookup(call.name()) {
            Ok(tool) => tool,
            Err(output) => return output,
        };
        match call.into_arguments(self.max_argument_bytes) {
            Ok(arguments) => self.run(tool, arguments, context),
            Err(err) => err.into(),
        }
    }

    fn lookup(&self, name: &str) -> Result<&dyn Tool, ToolOutput> {
        match self.index.get(name).and_then(|&i| self.tools.get(i)) {
            Some(tool) => Ok(&**tool),
            None => Err(ToolOutput::error(
                ErrorKind::UnknownTool,
                unknown_name_message("tool", name, self.names()),
            )),
        }
    }

    fn run(&self, tool: &dyn Tool, arguments: Map, context: &CallContext) -> ToolOutput {
        // Tools are `Sync` and shared: a panic cannot leave the registry itself half-changed,
        // and a tool's own state behind a `Mutex` is poisoned, which the tool sees.
        let result = panic::catch_unwind(AssertUnwindSafe(|| tool.call(arguments, context)));
        let mut output = result.unwrap_or_else(|_| {
            ToolOutput::error(
                ErrorKind::Internal,
                format!(
                    "tool {} failed with an internal error; this is not caused by the arguments",
                    quote(tool.spec().name())
                ),
            )
        });
        output.cap_text(self.max_output_bytes);
        output
    }
}

impl Default for ToolRegistry {
    fn default() -> ToolRegistry {
        ToolRegistry::new()
    }
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRegistry")
            .field("tools", &self.names().collect::<Vec<_>>())
            .field("max_argument_bytes", &self.max_argument_bytes)
            .field("max_output_bytes", &self.max_output_bytes)
            .finish()
    }
}
