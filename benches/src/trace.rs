//! The standard benchmark trace of `shared/bench/gen_trace.py`, regenerated in
//! Rust with the same algorithm: splitmix64 from seed `0x5EED`; proposition `k`
//! of a step is true iff the next output, shifted right by 11, is below
//! `probability[k] * 2^53`.

/// One step of the trace: bit `k` is proposition `k` of [`PROPOSITIONS`].
pub type Event = u16;

/// The propositions of a step, in bit order, with their probability of being true.
pub const PROPOSITIONS: [(&str, f64); 9] = [
    ("request", 0.20),
    ("reset", 0.10),
    ("alarm", 0.15),
    ("grant", 0.20),
    ("p", 0.30),
    ("q", 0.60),
    ("r", 0.10),
    ("s", 0.50),
    ("t", 0.10),
];

/// Bit of `request` in an [`Event`].
pub const REQUEST: Event = 1 << 0;
/// Bit of `reset`.
pub const RESET: Event = 1 << 1;
/// Bit of `alarm`.
pub const ALARM: Event = 1 << 2;
/// Bit of `grant`.
pub const GRANT: Event = 1 << 3;
/// Bit of `p`.
pub const P: Event = 1 << 4;
/// Bit of `q`.
pub const Q: Event = 1 << 5;
/// Bit of `r`.
pub const R: Event = 1 << 6;
/// Bit of `s`.
pub const S: Event = 1 << 7;
/// Bit of `t`.
pub const T: Event = 1 << 8;

/// The seed of the standard trace.
const SEED: u64 = 0x5EED;

/// The splitmix64 generator (Steele, Lea and Flood), as `gen_trace.py` runs it.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator with state `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The first `len` steps of the standard trace.
pub fn standard_trace(len: usize) -> Vec<Event> {
    // `int(p * 2**53)` in the Python generator: exact, since scaling by a power
    // of two only changes the exponent, then truncated.
    let thresholds = PROPOSITIONS.map(|(_, p)| (p * (1u64 << 53) as f64) as u64);
    let mut rng = SplitMix64::new(SEED);
    (0..len)
        .map(|_| {
            thresholds
                .iter()
                .enumerate()
                .fold(0, |event, (k, &threshold)| {
                    let bit = Event::from((rng.next_u64() >> 11) < threshold);
                    event | bit << k
                })
        })
        .collect()
}

/// Whether proposition `bit` holds in `event`.
pub const fn has(event: Event, bit: Event) -> bool {
    event & bit != 0
}
