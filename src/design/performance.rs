//! Performance: what is measured, how it is compared with the crates a user would pick
//! instead, and what the code does for speed.
//!
//! The work a tool call costs is small next to the network, so the aim is narrower than
//! "fast": no step may cost more than the peers' (serde_json for JSON, ureq for HTTP, the
//! usual YAML readers, FastMCP for MCP), and no input may cost more than in proportion to its
//! size. Both are measured, never assumed.
//!
//! # What `benches/` measures
//!
//!
//! **MCP over Streamable HTTP.** One run of `HTTPTOOL_BENCH_FASTMCP=/tmp/fastmcp-venv/bin/python
//! cargo bench --bench mcp_http` (release, 2 vCPUs shared with other builds, load average
//! 2 rising to 11 during the run, 3 s a measurement; runs under less load gave FastMCP up
//! to 492 calls/s and `serve --http` up to 17,516, the same ratios within a third): every server calls the same loopback API (`GET
//! /v1/weather?q=Oslo`, a 61-byte JSON body) once a call; FastMCP 4.2.3 serves it with one
//! pooled httpx client, stateless, JSON answers; `serve --http` is the binary with a plugin
//! file. Resident memory is each server process's `VmRSS` after its run.
//!
//! | connections | API alone (the floor) | `serve --http` | FastMCP 4.2.3 | ratio |
//! | ---: | ---: | ---: | ---: | ---: |
//! | 1 | 43,328 calls/s, p99 0.049 ms | 11,293 calls/s, p99 0.156 ms, 4.8 MiB | 290 calls/s, p99 9.0 ms, 84 MiB | 39x calls/s, p99 1/58, memory 1/18 |
//! | 16 | 71,178, p99 0.60 ms | 14,817, p99 3.2 ms, 7.6 MiB | 381, p99 107 ms, 86 MiB | 39x, p99 1/34, memory 1/11 |
//! | 64 | 71,051, p99 2.4 ms | 14,608, p99 28 ms, 8.7 MiB | 285, p99 398 ms, 90 MiB | 51x, p99 1/14, memory 1/10 |
//!
//! A call through `serve --http` crosses loopback twice (client to server, server to API), so
//! at one connection the floor is about half the API's rate; a `perf` profile of that run is
//! nearly all kernel (socket wake-ups, `sendto`, `recvfrom`), and `strace -c` counts about
//! seven system calls a call in the server: a `recvfrom` for the request, a `sendto` for
//! the answer, and for the upstream call the pooled connection's check for stray bytes (two
//! `ioctl`s and a `recvfrom`), one `writev` and one `recvfrom`. The read deadline's
//! `setsockopt` is made only when the time left differs from the timeout set (by more than
//! 10 ms), so a kept-alive connection's requests, each after an idle wait of the same length,
//! make none. The server's head buffer is 8 KiB a connection (it was the head limit, 64
//! KiB, zeroed), which took the 64-connection figure from 10.6 to 9.3 MiB in the same
//! conditions; what is left is per connection: a thread, and the upstream connection the
//! client pools (a 32 KiB buffer). Past 64 connections on 2 cores the p99 is scheduling: one thread a connection.
//!
//! The benchmarks are in the repository's `benches/` folder (not in the published crate),
//! `harness = false` programs that print `<name> <value> <unit>` lines, medians over several
//! samples, and the spread where it says something. Tests are never timed; timing lives here.
//!
//! | bench | what it measures |
//! | --- | --- |
//! | `json` | parse and write throughput (MB/s) of twitter.json, canada.json and citm_catalog.json, and the heap a parsed value holds; the time to write one number |
//! | `http` | requests per second and p50/p99 latency over loopback keep-alive for a small JSON body, a 100 KB body and the same body chunked; with `tls`, the same over https on one TLS connection |
//! | `tool` | registry dispatch, spec rendering, arguments to a request ready to write, and a whole tool call over loopback |
//! | `plugin` | loading, spec building, provider formats and writing for plugins of 1k, 10k and 100k parameters in three shapes, with the 100k / 1k ratio (1 when linear) |
//! | `openapi` | parsing and importing a generated 13 MB document of 1,200 operations, its heap peak, half the document (linearity), and the time `httptool serve --openapi` takes to answer `initialize` |
//! | `yaml` | parse throughput and peak heap of real OpenAPI documents in YAML and a generated one of about 8 MB |
//! | `mcp` | `tools/call` round trips through the server (one at a time and 8 in flight) and `tools/list` of 1,000 tools |
//! | `mcp_http` | `tools/call` over Streamable HTTP (revision 2026-07-28) with 1, 16 and 64 keep-alive connections: calls a second, p50 and p99 latency, resident memory; the API alone as the floor; `httptool serve --http` as a process of its own; FastMCP over its own Streamable HTTP in the same run (`HTTPTOOL_BENCH_FASTMCP`) |
//!
//! Run one with `cargo bench --bench NAME`; each file's first lines give its options. The
//! loopback benchmarks are steadier on a small machine with client and server on one CPU
//! (`taskset -c 1 cargo bench --bench http`): waking a server thread on an idle second CPU
//! costs more than the call.
//!
//! # The test build
//!
//! The integration tests build as one binary (`tests/main.rs`, each file of `tests/` a module
//! of it; `tests/README.md`), as ripgrep's do: with one binary a file, every one of the 98
//! files linked the whole crate again. A clean `cargo test --no-run`, measured on a 2-core
//! machine shared with other builds (load average 9 to 13), the commit before and the commit
//! after back to back, each in a fresh clone and a fresh target folder:
//!
//! | | wall | CPU (user + sys) | `target/` | test binaries |
//! | --- | --- | --- | --- | --- |
//! | one binary a file | 351 s | 159 s (127 + 32) | 3.4 GB | 98 |
//! | one binary | 210 s | 88 s (81 + 7) | 705 MB | 1 |
//!
//! The CPU time falls 1.8 times and the disk 4.8 times; the wall time, 1.7 times on the busy
//! machine, depends on the load. What remains is compiling the library, its unit tests and the
//! binary, which no layout of the integration tests changes. Measured again on the idle machine
//! (load average 0.3), and with `debug = 1` in `[profile.dev]` (line tables, no variable
//! locations), which the crate now sets for its own development builds:
//!
//! | | wall | CPU (user + sys) | `target/` |
//! | --- | --- | --- | --- |
//! | one binary a file, full debug information | 63.6 s | 112.8 s | 3.4 GB |
//! | one binary a file, `debug = 1` | 57.2 s | 103.1 s | 2.3 GB |
//! | one binary, full debug information | 38.8 s | 64.2 s | 705 MB |
//! | one binary, `debug = 1` | 27.9 s | 51.2 s | 526 MB |
//!
//! The layout alone is 1.6 times faster in wall time (2.05 times with `debug = 1` on both
//! sides); layout and profile together 2.3 times, with 6.5 times less disk. Backtraces and
//! panics still name file and line; a debugger loses local variables, which a contributor who
//! needs them gets back with `CARGO_PROFILE_DEV_DEBUG=2`.
//!
//! # Build cost
//!
//! Building the crate is part of what it costs its users, so the code the compiler would
//! copy per type or per closure is written once. Comments at those sites say "build cost"
//! and point here. The figures are lines of LLVM IR, measured when each site was written:
//!
//! - `sort_by_key` compiles the standard library's stable sort again for each element type,
//!   some 1,700 lines each; seven of them were 2% of the default build. `crate::sort` is one
//!   sort of `(key, position)` pairs instead.
//! - `str::parse` compiles the integer parser again for each integer type, some 350 lines
//!   each (`u8`, `u16`, `u32` and `u64` were four in the http build); `crate::decimal` reads
//!   a `u64` and narrows it.
//! - `str::find`, `contains`, `split` or `trim_matches` with a text pattern compile the
//!   substring searcher, some 1,500 lines, even for two or three bytes; the url and http
//!   layers loop over bytes instead.
//! - A `write!` is some 150 lines of IR at each call; the long `Display` impls (`http::Error`,
//!   `curl::Error`) write pieces through one small loop (`crate::quote::pieces`).
//! - Each closure passed to `any`, `position`, `all`, `fold` or `split` compiles its own
//!   copy of the iterator code, and a function generic over its iterator or sink its own copy
//!   of the body; the loops that many call sites share (`http::headers`, `http::wire`) are
//!   written once, and generic entry points hand over to a non-generic body.
//!
//! Off those paths, where the saved cost is not measurable, an iterator adapter reads better
//! and is preferred.
//!
//! **The small build against ureq + serde_json.** The goal is that `default-features =
//! false, features = ["http"]` builds at least 3 times faster than ureq 3.5.2 + serde_json
//! 1.0.154 in both profiles, with a smaller stripped binary. `.ci/build-cost 3 release` and
//! `.ci/build-cost 3 dev` build the same small program each way, clean, at `-j1`,
//! interleaved; medians of three, ratios peer / ours, on a shared two-core machine with
//! other builds running (the peer's own CPU time moved from 18.5 to 24.5 s between runs, so
//! only ratios from one run are compared):
//!
//! | profile, tree | ours wall / CPU s | peer wall / CPU s | ratio wall / CPU | stripped ours / peer |
//! | --- | --- | --- | --- | --- |
//! | release, before | 16.18 / 8.14 | 29.40 / 18.69 | 1.81 / 2.29 | 662,824 / 964,504 |
//! | release, threaded writer out | 11.78 / 8.02 | 24.65 / 20.64 | 2.09 / 2.57 | 663,440 / 964,504 |
//! | release, and server out | 14.43 / 6.94 | 38.54 / 19.21 | 2.67 / 2.76 | 662,864 / 964,504 |
//! | release, the same again | 9.71 / 7.46 | 26.04 / 20.24 | 2.68 / 2.71 | 662,864 / 964,504 |
//! | dev, before | 6.08 / 2.83 | 23.90 / 9.61 | 3.93 / 3.39 | 1,074,432 / 1,959,608 |
//! | dev, threaded writer out | 3.87 / 2.47 | 13.29 / 8.69 | 3.43 / 3.51 | 1,070,952 / 1,959,608 |
//! | dev, and server out | 3.51 / 2.16 | 15.73 / 10.08 | 4.48 / 4.66 | 1,068,088 / 1,959,608 |
//!
//! Where the small build's time goes (`-Z time-passes` on the library's release build):
//! about 10 of 13 s in LLVM (ThinLTO and the optimisation passes), under 1.5 s in type and
//! borrow checking, so what counts is how much code is generated. Before the cuts, the
//! optimised IR was 95,000 lines in 545 functions: the client's request path
//! (`Client::send_hop` alone 5.5%), the JSON parser and writer, drop glue and `Debug` /
//! `Display` impls (5% each), and two parts no client uses: the threaded pretty writer with
//! its thread plumbing (`Json::write_pretty_io_threaded`, about 7% with the spawned
//! closures), and [`http::HttpServer`](crate::http::HttpServer) (about 7%). Both are now
//! compiled only where they are used: the writer with the `cli` feature (the `import`
//! commands print large plugin files with it), the server with its own `server` feature
//! (implied by `cli`, on by default, needed by `mcp::HttpTransport`). The IR is 76,000
//! lines after, a fifth less. Built three times side by side from the three snapshots, the
//! small program's clean release build took a median 8.08 s of CPU before, 7.56 s without
//! the threaded writer and 6.74 s without the server too: 17% less.
//!
//! What is left is the client itself, spread thin (no function over 7%; `cargo llvm-lines`
//! finds 90,000 lines of unoptimised IR in 1,693 functions, the largest `http::Error`'s
//! `Display` at 2.5%). On the idle machine, after the cuts were merged: release 7.11 s
//! ours against 19.96 s peer (wall), ratio **2.80** wall and 2.82 CPU, short of 3; dev
//! 3.78 and 3.80 (2.34 s against 8.86 s), met; stripped binaries 662,864 against 964,504
//! bytes (release) and 1,068,008 against 1,959,608 (dev). Reaching 3 in release needs about
//! 6% less generated code across the client, not one cut.
//!
//! Measured for speed where the sites now give only the reason:
//!
//! - JSON writer: staging short ASCII string values in compact output, as pretty output does,
//!   made writing twitter.json 10% slower; compact output writes values straight.
//! - JSON parser: inlining the hand-over of a finished value into each caller made parsing
//!   5 to 10% faster than one shared call (each value still passes through a stack temporary
//!   whose reload stalls, about 10% of parse time in profiles, left for later); inlining
//!   number parsing, 10 to 15% faster on number-heavy documents.
//! - JSON string scan: the parser's own word-at-a-time scan, rebuilt from `json::scan`'s
//!   functions with or without the cheap test first, compiled to code 0.4 to 2% slower on the
//!   OpenAPI benchmark's document (callgrind), whose strings are mostly short keys.
//!
//! # How peers are compared
//!
//! A harness kept beside the repository (not in it, and not in the crate) builds one program
//! that holds httptool and the peers, and measures the same workloads in the same process,
//! one after the other, calling httptool only through the
//! [entry points](super::architecture#entry-points). It prints ratios, ours against each
//! peer, above 1 when ours is ahead: JSON parse and write MB/s against serde_json on the
//! three files above; keep-alive GET requests per second and p99 latency against ureq; a
//! whole tool call against the same pipeline written with serde_json and ureq; YAML parse
//! MB/s against yaml-rust2 and serde_yaml, after checking that every reader produced the
//! same value. FastMCP is measured over stdio on the same MCP workloads and the same OpenAPI
//! document. Machines drift and are often shared, so only ratios measured side by side in
//! one run are quoted, never absolute figures from different runs.
//!
//! # Decisions made for speed
//!
//! **JSON.**
//! - One pass over the bytes with an explicit stack ([`json::parse`](crate::json::parse)),
//!   which also makes depth a limit instead of a stack overflow.
//! - Objects are a vector of entries in insertion order ([`Map`](crate::json::Map)): one
//!   allocation of the parsed size, and lookups that scan, which beats hashing for the few
//!   dozen keys APIs exchange. Past 128 entries, building a map finds repeated keys through a
//!   hash index, so a huge object still parses in linear time.
//! - Numbers: Clinger's fast path, then Eisel-Lemire, then the standard library's correctly
//!   rounded parser for what those cannot decide; written back in the shortest round-trip
//!   form by Schubfach, with digits produced eight at a time in a `u64`.
//!
//! **HTTP.**
//! - Keep-alive connections pooled per origin, bounded in number and age; the pool's lock is
//!   held only to take or put one connection, never while a socket is checked or closed.
//! - The request head and body go out in one vectored write (`write_vectored`), so a small
//!   request usually takes one system call.
//! - One deadline for the whole call sets every socket timeout.
//!
//! **Tools and plugins.**
//! - What every call of an endpoint reuses is prepared once, when the plugin is built: the
//!   path split into pieces, where each parameter goes, encoded names, header templates, the
//!   request options and the spec. A call fills values in; it does not re-read the
//!   declaration.
//! - The request URL is written into one string and parsed once.
//! - Name checks (duplicates, "is this parameter declared") scan while a set is small and
//!   hash once it is large, so loading a plugin and rendering its schema stay linear in its
//!   size (the `plugin` bench's 100k / 1k ratio).
//! - An empty [`CallContext`](crate::tool::CallContext) allocates nothing, so
//!   [`ToolRegistry::call`](crate::tool::ToolRegistry::call) makes one for every call for free.
//! - Redacting echoed secrets is one linear scan of the text per form of each secret, with
//!   Knuth-Morris-Pratt for a secret that repeats itself, so overlapping occurrences stay
//!   linear.
//!
//! **Imports and the MCP server.**
//! - The OpenAPI importer converts each component once (per direction: request, response).
//!   A component that is recursive or used in more than one place stays a `$ref` into
//!   `$defs` (JSON Schema 2020-12), written once in the plugin file's `$defs`; each tool's
//!   schema gets under its own `$defs` only the entries its parameters reach (a work list,
//!   with the names each entry refers to found once per plugin). A component used once is
//!   written in place, at most 16 in a row before the next stays a `$ref`; a chain of `$ref`s
//!   to `$ref`s is followed in a loop. So a document costs its size, not the number of paths
//!   through its `$ref` graph, and nothing recurses on the input's length (10,000-link chains
//!   import on a 2 MiB thread). A JSON body that is a shared component of more than 256
//!   properties is one `body` parameter referring to it, not 256 parameters in every
//!   operation. Gemini's `parameters` take no `$ref`: entries are written in place there,
//!   bounded, and a recursive one left is named in the description.
//!   Measured (release build, 2 vCPUs, `/usr/bin/time`, the whole `httptool import openapi`
//!   process, reading and printing included, on an idle machine; FastMCP 4.2.3
//!   `from_openapi` by `../shared/peers/openapi/fastmcp_peer.py`, one run, while other builds
//!   ran): APIs-guru Stripe (2.5 MB, 452 operations) 0.12 s, 32 MB peak, 448 tools (4
//!   deprecated), against FastMCP's 155 s; GitHub `api.github.com.json` (5.7 MB) 0.17 s,
//!   55 MB, against 11.9 s, and 560,818 context bytes (name, description and `inputSchema`
//!   of `tools/list`, compact JSON) against FastMCP's 921,757 (0.61); Microsoft Graph (20 MB,
//!   11,422 operations) 1.7 s, 381 MB, a 69 MB plugin file; 400 and 1,000 operations sharing
//!   one 2,000-property schema (272 KB, 437 KB documents) 0.06 s and 0.08 s, 11 and 17 MB,
//!   plugin files of 373 KB and 575 KB (before: more than 1 GB; 3.4 GB, 10 s and 257 MB).
//! - An import's figures (each tool's schema bytes, which `import openapi` sums and ranks)
//!   measure each schema the tools share (the `$defs` entries many reach) once per thread,
//!   found again by its allocation, and only each tool's own members besides: for
//!   Microsoft Graph beta (47 MB, 21,807 tools) the tool schemas are 147 MB, several times
//!   the document, and walking each whole took about 0.5 s of one thread (then spread over
//!   the import's threads). The command line has the import free the parsed document (see
//!   below), so what is made after it reuses that memory rather than add to the peak (the
//!   rest is still left to the process's exit).
//!   Where Graph beta's time went before these (release build, 2 vCPUs, timing lines around
//!   each phase of `httptool import openapi`, idle machine, 3.2 to 3.4 s in all): reading
//!   and parsing 0.34 s, the walk 0.05 s, converting the operations 0.6 s, writing the
//!   plugin file value 0.25 s, reading it back and compiling the tools 1.0 s (per tool: the
//!   `$defs` entries it reaches cloned, checked and compacted), the figures 0.5 s, freeing
//!   the import's intermediate values about 0.4 s, `to_json` 0.15 s and printing 0.2 s. A profile (`perf record`) of the
//!   whole command still puts a fifth of it in the kernel clearing new pages: the
//!   memory, more than the walks, is the cost.
//!   Measured (release, 2 vCPUs, `/usr/bin/time` on the whole `httptool import openapi`
//!   process, user + system CPU and maximum resident set, median of 3, the commit before
//!   and after back to back, load average 2 to 3.5, plugin files and reports compared byte
//!   for byte): Stripe (2.5 MB) 0.09 s to 0.13 s, 33 MB to 31.5 MB (13x the document);
//!   GitHub (5.7 MB) 0.12 s to 0.15 s, 54 MB to 53 MB (9.2x); Graph (20 MB) 1.56 s to
//!   1.62 s, 364 MB to 327 MB (16x); Graph beta (47 MB) 3.59 s to 3.56 s, 714 MB to 634 MB
//!   (13.5x). The figures take 0.13 s less of Graph beta (3.08 s to 2.96 s of user time,
//!   the figures alone, back to back); freeing the document costs about what that saves,
//!   and the small documents' differences are within the noise of a shared machine.
//!   The 4x target is not met, and cannot be while the compiled tools are kept as they are:
//!   Graph beta's plugin file alone is 124 MB (pretty JSON), and the peak is now the import
//!   itself, the parsed document (about 140 MB) and the plugin with its compiled tools
//!   (about 430 MB, some 20 KB a tool) alive at once. Tried and left out: sharing one map
//!   of reached `$defs` between the tools that reach the same entries (10 MB less for
//!   Graph beta, 4 MB for Graph, the same time), and freeing the document on another
//!   thread (no less memory, 0.1 s more CPU).
//! - `httptool import openapi` hands the parsed document to the import
//!   ([`openapi::import_owned`](crate::openapi::import_owned)), which frees it once the
//!   operations are converted, before the plugin is assembled and its tools compiled: the
//!   peak was the document and the compiled tools alive at once, and the tools are now made
//!   in the document's memory. The output is byte for byte the same (plugin files, reports
//!   and `tools --format mcp` of GitHub's current description, Graph beta and Stripe).
//!   Measured (release, 2 vCPUs, `/usr/bin/time` on the whole process, 5 runs of each
//!   build alternating, load average 4 to 5 from other builds, so only memory and CPU are
//!   quoted; maximum resident set, median): Stripe (2.5 MB) 30.9 MB to 30.1 MB; APIs-guru
//!   GitHub (5.7 MB) 52.2 MB to 49.7 MB; GitHub's current description (13 MB) 64.3 MB to
//!   60.4 MB (4.6x the document); Graph (20 MB) 330 MB to 275 MB; Graph beta (47 MB) 642 MB
//!   to 530 MB (11x). CPU time within the noise (Graph beta 4.2 s to 4.0 s, user and
//!   system): the document is freed as before, only earlier. Freeing it is not cheap:
//!   for GitHub's current description it is 14% of a one-thread import (`perf record`),
//!   half of that in glibc merging freed chunks (`malloc_consolidate`, `unlink_chunk`),
//!   as long as parsing it, and on the calling thread while the other waits. Tried and
//!   left out: freeing it on a thread of its own while the tools are compiled (5 MB more
//!   for GitHub's description, the same CPU, and no wall-time gain that the loaded
//!   machine let show); leaving it to the process's exit (GitHub 64 MB to 66 MB, Graph
//!   beta 642 MB to 714 MB, for 0.04 s less of GitHub's CPU).
//! - A tool's schema is checked for depth twice as its plugin is built (as declared, and
//!   made compact), and each time it holds the `$defs` entries the tool reaches: walking
//!   them whole for every tool was 6 to 7% of Graph beta's import (`perf record`). The
//!   plugin's builder walks each object the schemas share once per thread
//!   (`tool::spec::Depths`, by allocation, at the deepest level met), and the rest of each
//!   schema as before. Output byte for byte the same (GitHub's current description, Graph
//!   beta, Stripe). Measured as above (5 alternating runs, median, load average about 4):
//!   Graph beta 3.90 s to 3.60 s of CPU, 530 MB to 532 MB; Graph 1.71 s to 1.70 s; GitHub's
//!   current description 0.28 s to 0.25 s (within the noise).
//! - An output schema is a loose copy of the response schema (it admits every answer the
//!   API gives), made from the converted schema, whose components many responses share.
//!   Each converter makes the loose copy of a shared object once and shares it in turn
//!   (`LooseMemo` in `openapi::response`), so the tools' output schemas share what the
//!   responses did. Output byte for byte the same (GitHub's current description, Graph
//!   beta, Stripe). Measured as above (5 alternating runs, median, load average 4 to 5):
//!   GitHub's current description 60.4 MB to 55.1 MB (4.2x the document), 0.25 s to 0.24 s
//!   of CPU; APIs-guru GitHub 49.7 MB to 45.4 MB; Stripe 30.0 MB to 29.4 MB; Graph beta
//!   532 MB to 500 MB, 3.90 s to 3.66 s.
//!   The three together (the commit before them and after, 5 alternating runs, median,
//!   load average 3.3 to 4.2): Stripe 31.1 MB to 29.3 MB (11.7x), 0.12 s of CPU both;
//!   APIs-guru GitHub 52.2 MB to 45.4 MB (7.9x), 0.19 s to 0.18 s; GitHub's current
//!   description 63.8 MB to 55.0 MB (4.2x), 0.27 s to 0.26 s; Graph 330 MB to 258 MB
//!   (12.9x), 2.12 s to 1.87 s; Graph beta 643 MB to 500 MB (10.6x), 3.90 s to 3.51 s (3.92 s
//!   to 3.57 s wall on the loaded machine). What is left of the peak is the plugin and its
//!   compiled tools (each tool's compact schema a copy of the parts of its parameters'
//!   schemas that compaction changes, beside the declared ones the endpoint keeps), and,
//!   after the import, the plugin file value (`to_json`) made beside them.
//! - Writing single-use `$defs` entries in place (`tool::single_use`, for context bytes)
//!   costs the large documents what the last items saved: it counts a tool's `$ref`s by
//!   walking its schema and every `$defs` entry the tool reaches, for each tool, and
//!   rebuilds the roots of the tools it changes. Idle machine, the merged tree against the
//!   speed work alone (3 alternating runs, median): Graph beta 2.78 s wall and 4.19 s CPU,
//!   616 MB, against 2.23 s, 3.21 s and 500 MB (at the start of that work: 2.53 s, 3.77 s,
//!   644 MB). The cure is the one `Depths` applied: count the `$ref`s inside each shared
//!   entry once per thread and walk only the rest of each tool.
//! - A tool's reached `$defs` entries are found through a graph of the plugin's `$defs` made
//!   once per plugin (each entry's position by name and the entries it refers to), so a
//!   tool costs a hash lookup per entry it reaches; before, every lookup scanned the
//!   plugin's entries (Graph beta has 1,728, and 21,807 tools reach dozens each), about 6%
//!   of a one-thread import. When no parameter brings `$defs` of its own, the tool schema
//!   takes the reached entries as one shared map instead of inserting them one by one.
//!   The output is byte for byte the same (GitHub and Graph beta plugin files compared).
//!   Measured (release, 2 vCPUs, `/usr/bin/time` on the whole `httptool import openapi`
//!   process, median of 3, the commit before and after back to back, load average under
//!   2): Stripe 0.10 s to 0.08 s, 33 MB; GitHub 0.12 s both, 55 MB; Graph 1.39 s to 1.40 s,
//!   389 MB (19x the document); Graph beta 3.02 s to 2.92 s, 771 MB to 767 MB (16x).
//!   What stays of Graph beta's time is the importer's (converting, the plugin file value
//!   and reading it back), the per-tool compaction, the figures and freeing; peak memory is
//!   still the parsed document, the plugin file value and the compiled tools alive at once,
//!   so the 4x target is not met. `../shared/corpus/import-all.sh` with this build: `2620
//!   imported, 0 refused, 19 without operations, 0 timed out (of 2639)`, Graph beta the
//!   slowest at 3.4 s, Graph 1.5 s, every other document under 0.4 s.
//! - Context bytes, measured as `../shared/peers/openapi/fastmcp_peer.py` does (name,
//!   description and `inputSchema` of every tool of `tools/list`, compact JSON, UTF-8), on
//!   APIs-guru `api.github.com.json` (5.7 MB, 845 operations) with `--include-deprecated`
//!   (one tool per operation, as FastMCP makes): 457,683 bytes against FastMCP 4.2.3's
//!   921,757 (0.497; FastMCP run here once, its figure the same as before); 443,118 (0.481)
//!   for the 811 tools of the default import. On GitHub's current description (npm
//!   `@octokit/openapi` 23.0.2, `api.github.com.json`, 13 MB, 1,223 operations) 864,317
//!   against FastMCP's 1,641,273 (0.527), and 830,745 (0.506) once a later sentence that
//!   sends the reader elsewhere (`For more information, see "Using pagination in the REST
//!   API."`, 517 times) is left out too; 457,545 (0.496) on the APIs-guru one. What is left
//!   there is structure: `type` 124 KB, property names 74 KB, `$defs` 64 KB, `required`
//!   53 KB, the roots' `additionalProperties: false` 34 KB. Before the compact schema's description
//!   rules (a tool's first sentence; a parameter's first sentence and the later ones that
//!   name a value; none when it says only its name: see [`compact_schema`](crate::tool::compact_schema))
//!   it was 581,727 (0.63) and 560,818 (0.61). Where the bytes go now: tool descriptions 56
//!   KB (were 92), parameter descriptions 124 KB (were 212; `The name is not case
//!   sensitive.` after 994 of them was 32 KB alone), members' 11 KB, the rest (names, types, `required`, enums, defaults, the
//!   root's `additionalProperties`) 266 KB. On other documents (`--include-deprecated`,
//!   before and after, against FastMCP's bytes): Stripe 0.653 to 0.641 (452 tools; its
//!   bytes are in schemas, not text), Google Drive 0.527 to 0.473, Google Compute 0.399 to
//!   0.377, Twilio 0.659 to 0.607, Slack 0.946 to 0.927, Spotify 0.478 to 0.431. The
//!   plugin file keeps the text whole (capped at 1,024 and 512 bytes as before), and
//!   `full_schemas` serves it.
//! - Context bytes, three more compact rules (measured as above, `--include-deprecated`,
//!   release build, `httptool tools PLUGIN --format mcp`, FastMCP 4.2.3's figures from the
//!   same peer). On GitHub's current description (1,223 tools): 830,745 bytes, then 816,531
//!   once a `$defs` entry that one `$ref` of the tool names is written in its place (a
//!   component the document shares but the tool uses once: 179 entries in 45 tools before,
//!   15 in 10 after, each used twice or more), 801,544 once a tool description whose words
//!   are only the tool's name is left out beside a title (412 tools, `Get a repository
//!   public key.`; tool descriptions 70 KB to 55 KB), and 798,816 once a title that is a
//!   name from a program (`required_status_checks`, `StatusCheckConfiguration`) is left out:
//!   **0.487** of FastMCP's 1,641,273 (was 0.506). The default import (1,186 tools,
//!   deprecated operations left out) goes from 813,887 to 781,958. FastMCP writes every
//!   component in place and keeps every title; it spends more on text (673 KB of
//!   descriptions against 270 KB here, 524 KB of it in tool descriptions), while `type`
//!   (121 KB), property names (74 KB) and `required` are the same bytes in both, and the
//!   roots' `additionalProperties: false` (37 KB) is ours alone. On the APIs-guru documents,
//!   before and after, with the ratio to FastMCP's figure for the same tools: GitHub 457,545
//!   to 444,435 (0.496 to 0.482; default import 442,980 to 429,870), Stripe 721,664 to
//!   688,545 (0.641 to 0.611: 34 KB of titles such as `range_query_specs`), Google Drive
//!   124,866 to 124,553 (0.473 to 0.472), Google Compute 2,204,684 to 2,189,072 (0.377 to
//!   0.374), Twilio 242,490 to 242,403 (0.607 to 0.606), Slack 97,700 both (0.927: its
//!   tools have no titles, and its schemas are FastMCP's with `additionalProperties: false`),
//!   Spotify 45,108 to 44,973 (0.431 to 0.429). What is left on Stripe is `maxLength` (47
//!   KB, a bound the request is checked against), property names and text. Over every ninth
//!   document of the APIs-guru directory (292 that import), 18,217,798 bytes to 17,931,816,
//!   every `$ref` left naming an entry that is there, and each rendering for Gemini made.
//! - A HAR recording costs its parsed tree: on a generated 50 MB recording of 12,117
//!   Chrome-like entries (JSON bodies and answers, 1 in 300 answers of about 0.3 MB, images,
//!   analytics, three API hosts kept), `httptool import har` took 0.58 to 0.60 s of CPU
//!   (user and system, `/usr/bin/time`, release build, 2 vCPUs) and 279 MB peak, against 0.80
//!   to 0.84 s before; 12.5 MB took 0.15 s and 73 MB, so time and memory grow linearly
//!   (`tests/har_linear.rs` checks eight times the entries against one). Parsing the
//!   recording is about 70% of it, most of that in first touches of the tree's memory; the
//!   command leaves the tree to the process's end, since taking it apart cost a quarter of
//!   the time, and reads the file into room for all of it at once.
//! - A large JSON document is written pretty on several threads
//!   ([`Json::write_pretty_io_threaded`](crate::json::Json::write_pretty_io_threaded), which
//!   `httptool import openapi` prints its plugin file with): the elements of its largest array
//!   go in chunks of about 64 KiB of text, written in order by the calling thread, with a few
//!   chunks in flight at most. On the OpenAPI benchmark's 45 MB file, two threads cost
//!   1.2 M instructions more than one (of 1,283 M for the process) and 0.6 MB more memory
//!   at the peak; chunks of 256 KiB cost 2 MB more, and the whole text made at once cost
//!   more in page faults than a second thread gains.
//! - The MCP server reads lines under a cap without holding a long line, and runs calls on a
//!   bounded worker pool ([`Server`](crate::mcp::Server) documents the limits), so calls
//!   to a slow API run side by side instead of one after another.
