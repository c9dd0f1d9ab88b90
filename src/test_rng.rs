//! The seeded generator of every test, unit and integration (the integration tests include
//! this file as `support::rng`): xorshift64*, the same sequence on every run and every
//! machine, and no dependency.

#![allow(dead_code)]

/// xorshift64*: small, fast, and the same sequence everywhere.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`; any seed works, zero included (it is scrambled first).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// A generator whose state is `state` as given (not zero, or it yields only zeros): for
    /// tests whose inputs were chosen by the sequence of that raw state.
    pub fn from_state(state: u64) -> Rng {
        Rng(state)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True once in `one_in` times, on average.
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    /// One of `items` (not empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}
