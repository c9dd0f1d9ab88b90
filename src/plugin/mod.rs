//! HTTP plugins: declared endpoints become callable tools.
