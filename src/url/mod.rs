//! URLs: parsing of absolute http and https URLs, percent-encoding and query strings.
