//! The byte encoding of the stamps that generated `system` monitors piggyback
//! on messages (docs/cpl.md, "The stamp layout"), and its error type.
//!
//! A generated `Stamp` writes itself with a [`Writer`] and reads itself back
//! with a [`Reader`]; both work on caller-provided byte slices and never
//! allocate or panic. The format, all integers little-endian:
//!
//! | part | bytes |
//! |---|---|
//! | format [`VERSION`] | 1 |
//! | spec fingerprint | 8 |
//! | vector clock: one LEB128 varint per lifeline, below [`CLOCK_LIMIT`] | 1-9 each |
//! | one bit per view entry (a formula's value, a variable's defined flag) | ⌈entries / 8⌉ |
//! | the value of every *defined* variable entry | 1 (bool, enum), 4 (enum of > 256 variants), 8 (int, float) |
//!
//! The encoding is canonical: the reader rejects overlong varints, set
//! padding bits, bool bytes other than 0 and 1, and trailing bytes, so a
//! stamp has exactly one encoding. No clock component of a genuine stamp
//! reaches [`CLOCK_LIMIT`]; the reader rejects one that does.
//!
//! A **sealed** stamp (generated with sealed stamps on) is the encoding
//! followed by a [`TAG_BYTES`]-byte tag: HMAC-SHA-256 under a [`StampKey`]
//! over every byte before it, truncated. [`open`] checks the tag in constant
//! time before a single byte is decoded, so without the key no stamp can be
//! forged or altered (each try succeeds with probability 2^-128).

use core::fmt;
use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The format version written first in every encoded stamp.
pub const VERSION: u8 = 1;

/// Bytes of the header: the version and the 8-byte spec fingerprint.
pub const HEADER_BYTES: usize = 9;

/// The most bytes one varint-encoded `u64` takes.
pub const MAX_VARINT_BYTES: usize = 10;

/// Clock components at or above this (2^63) are never genuine: a lifeline
/// would need 2^63 events (292 years at 10^9 events per second). A stamp
/// claiming one is [`StampError::Malformed`], and a lifeline stops sending
/// ([`StampError::ClockSaturated`]) before its own component gets there, so a
/// forged stamp with a huge clock (`u64::MAX`) is refused where it arrives
/// instead of freezing that component for the rest of the run.
pub const CLOCK_LIMIT: u64 = 1 << 63;

/// The most bytes one clock component takes: a varint below [`CLOCK_LIMIT`]
/// holds 63 bits, 7 per byte.
pub const MAX_CLOCK_BYTES: usize = 9;

/// Bytes of the tag that seals a stamp ([`seal`], [`open`]).
pub const TAG_BYTES: usize = 16;

/// Why a stamp could not be encoded, decoded or merged. Whatever the error,
/// nothing was merged into a monitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StampError {
    /// The bytes are not an encoded stamp: truncated, trailing bytes, a
    /// non-canonical varint or bit set, an enum index beyond its variants, or
    /// a view entry of a lifeline no event of which the stamp has seen.
    Malformed,
    /// The bytes were written in another format version.
    WrongVersion,
    /// The stamp comes from another spec (its fingerprint differs).
    WrongSpec,
    /// The output buffer cannot hold the encoded stamp (`Stamp::BYTES` always can).
    BufferTooSmall,
    /// The stamp is ahead of the receiver on the receiver's own clock
    /// component, which no real message can be.
    Inconsistent,
    /// The sender's own clock component has reached [`CLOCK_LIMIT`] - 1: no
    /// further stamp could show progress.
    ClockSaturated,
    /// A sealed stamp's tag does not match its bytes under the key: it was
    /// altered, forged, sealed under another key, or not sealed at all.
    Unauthenticated,
}

impl fmt::Display for StampError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StampError::Malformed => "malformed stamp",
            StampError::WrongVersion => "stamp written in another format version",
            StampError::WrongSpec => "stamp from another spec (fingerprint mismatch)",
            StampError::BufferTooSmall => "buffer too small for the stamp",
            StampError::Inconsistent => {
                "inconsistent stamp: ahead of the receiver on its own clock component"
            }
            StampError::ClockSaturated => "the clock component is saturated",
            StampError::Unauthenticated => {
                "stamp not authenticated: its tag does not match under the key"
            }
        })
    }
}

impl core::error::Error for StampError {}

/// The byte encoding of a generated `Stamp`: what transports (and the
/// `serde_bytes` adaptor) need, whatever the system.
pub trait StampCodec: Sized {
    /// The most bytes an encoding takes.
    const BYTES: usize;

    /// Writes the encoding into `out`; returns its length.
    fn encode(&self, out: &mut [u8]) -> Result<usize, StampError>;

    /// Reads an encoding written by [`StampCodec::encode`] of the same spec.
    fn decode(bytes: &[u8]) -> Result<Self, StampError>;
}

/// The byte encoding of a generated `Stamp` with sealed stamps on: every
/// encoding carries a tag under a [`StampKey`] and is checked against it.
pub trait SealedStampCodec: Sized {
    /// The most bytes a sealed encoding takes (the tag included).
    const BYTES: usize;

    /// Writes the sealed encoding into `out`; returns its length.
    fn encode(&self, key: &StampKey, out: &mut [u8]) -> Result<usize, StampError>;

    /// Reads a sealed encoding: the tag is checked first, then the encoding.
    fn decode(bytes: &[u8], key: &StampKey) -> Result<Self, StampError>;
}

/// A key that seals and opens stamps: HMAC-SHA-256 with the key schedule
/// done once. Supply it at run time (never compile it in); every lifeline of a
/// system shares it. Its `Debug` form does not show the key.
#[derive(Clone)]
pub struct StampKey {
    mac: Hmac<Sha256>,
}

impl StampKey {
    /// The key with secret `secret`: 32 bytes from a cryptographic random
    /// source, distributed to the system's participants out of band.
    pub fn new(secret: &[u8; 32]) -> StampKey {
        // HMAC pads a key shorter than the hash's 64-byte block with zeros
        // (RFC 2104), so the padded block is the same key, given infallibly.
        let mut block = [0u8; 64];
        for (b, s) in block.iter_mut().zip(secret) {
            *b = *s;
        }
        let mac = <Hmac<Sha256> as KeyInit>::new(&block.into());
        StampKey { mac }
    }

    /// The tag of `bytes`.
    fn tag(&self, bytes: &[u8]) -> Hmac<Sha256> {
        let mut mac = self.mac.clone();
        mac.update(bytes);
        mac
    }
}

impl fmt::Debug for StampKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StampKey(..)")
    }
}

/// Seals the encoding `out[..len]`: writes its tag at `out[len..]`; returns
/// the sealed length.
pub fn seal(key: &StampKey, out: &mut [u8], len: usize) -> Result<usize, StampError> {
    let end = len
        .checked_add(TAG_BYTES)
        .ok_or(StampError::BufferTooSmall)?;
    let (body, rest) = out
        .split_at_mut_checked(len)
        .ok_or(StampError::BufferTooSmall)?;
    let slot = rest
        .get_mut(..TAG_BYTES)
        .ok_or(StampError::BufferTooSmall)?;
    let tag = key.tag(body).finalize().into_bytes();
    slot.copy_from_slice(tag.get(..TAG_BYTES).unwrap_or_default());
    Ok(end)
}

/// The encoding inside the sealed `bytes`, once its tag checks out under `key`
/// (compared in constant time); [`StampError::Unauthenticated`] otherwise.
pub fn open<'a>(key: &StampKey, bytes: &'a [u8]) -> Result<&'a [u8], StampError> {
    let split = bytes
        .len()
        .checked_sub(TAG_BYTES)
        .ok_or(StampError::Unauthenticated)?;
    let (body, tag) = bytes.split_at(split);
    key.tag(body)
        .verify_truncated_left(tag)
        .map_err(|_| StampError::Unauthenticated)?;
    Ok(body)
}

/// A stamp as its checked byte encoding: what a generated (unsealed) `Stamp`
/// serializes as, with the `serde` feature (`#[serde(into, from)]` through
/// this type), so that a deserialized stamp has passed every check of
/// `from_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded<S>(pub S);

impl<S: StampCodec> From<S> for Encoded<S> {
    fn from(stamp: S) -> Self {
        Encoded(stamp)
    }
}

#[cfg(feature = "serde")]
impl<S: StampCodec> serde::Serialize for Encoded<S> {
    fn serialize<Z: serde::Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        serde_bytes::serialize(&self.0, serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de, S: StampCodec> serde::Deserialize<'de> for Encoded<S> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_bytes::deserialize(deserializer).map(Encoded)
    }
}

/// With the `serde` feature: `#[serde(with = "hindsight_runtime::stamp::serde_bytes")]`
/// on a field holding a generated `Stamp` serializes it as its checked byte
/// encoding (a byte string), so a deserialized stamp has passed every check of
/// `from_bytes` — version, spec fingerprint, canonical form.
#[cfg(feature = "serde")]
pub mod serde_bytes {
    use super::StampCodec;
    use core::fmt;
    use core::marker::PhantomData;
    use serde::de::{self, SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};

    /// The largest encoding the adaptor handles without allocating.
    pub const MAX_BYTES: usize = 4096;

    /// Serializes `stamp` as its byte encoding.
    pub fn serialize<T: StampCodec, S: Serializer>(
        stamp: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; MAX_BYTES];
        let len = stamp.encode(&mut buf).map_err(serde::ser::Error::custom)?;
        serializer.serialize_bytes(buf.get(..len).unwrap_or_default())
    }

    /// Deserializes a stamp from its byte encoding, rejecting anything
    /// `from_bytes` rejects.
    pub fn deserialize<'de, T: StampCodec, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        deserializer.deserialize_bytes(StampVisitor(PhantomData))
    }

    struct StampVisitor<T>(PhantomData<T>);

    impl<'de, T: StampCodec> Visitor<'de> for StampVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("the byte encoding of a stamp")
        }

        fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<T, E> {
            T::decode(bytes).map_err(E::custom)
        }

        // Self-describing formats such as JSON write bytes as a sequence of numbers.
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
            let mut buf = [0u8; MAX_BYTES];
            let mut len = 0;
            while let Some(byte) = seq.next_element::<u8>()? {
                let slot = buf
                    .get_mut(len)
                    .ok_or_else(|| de::Error::custom("stamp encoding too long"))?;
                *slot = byte;
                len += 1;
            }
            T::decode(buf.get(..len).unwrap_or_default()).map_err(de::Error::custom)
        }
    }
}

/// Writes an encoded stamp into a byte slice, front to back.
#[derive(Debug)]
pub struct Writer<'a> {
    out: &'a mut [u8],
    len: usize,
}

impl<'a> Writer<'a> {
    /// Starts a stamp of the spec with `fingerprint` in `out`: writes the header.
    pub fn new(out: &'a mut [u8], fingerprint: u64) -> Result<Self, StampError> {
        let mut writer = Writer { out, len: 0 };
        writer.byte(VERSION)?;
        writer.u64(fingerprint)?;
        Ok(writer)
    }

    /// One byte.
    pub fn byte(&mut self, byte: u8) -> Result<(), StampError> {
        let slot = self
            .out
            .get_mut(self.len)
            .ok_or(StampError::BufferTooSmall)?;
        *slot = byte;
        self.len += 1;
        Ok(())
    }

    /// A bool as one byte, 0 or 1.
    pub fn bool(&mut self, value: bool) -> Result<(), StampError> {
        self.byte(u8::from(value))
    }

    /// A `u32`, little-endian.
    pub fn u32(&mut self, value: u32) -> Result<(), StampError> {
        value
            .to_le_bytes()
            .into_iter()
            .try_for_each(|b| self.byte(b))
    }

    /// A `u64`, little-endian.
    pub fn u64(&mut self, value: u64) -> Result<(), StampError> {
        value
            .to_le_bytes()
            .into_iter()
            .try_for_each(|b| self.byte(b))
    }

    /// A `u64` as an LEB128 varint: 7 bits per byte, low bits first, the high
    /// bit set on every byte but the last.
    pub fn varint(&mut self, mut value: u64) -> Result<(), StampError> {
        while value >= 0x80 {
            self.byte((value & 0x7f) as u8 | 0x80)?;
            value >>= 7;
        }
        self.byte(value as u8)
    }

    /// `bits` as a bit set: bit `k` is bit `k % 8` of byte `k / 8`; the unused
    /// bits of the last byte are zero.
    pub fn bits(&mut self, bits: &[bool]) -> Result<(), StampError> {
        bits.chunks(8).try_for_each(|chunk| {
            let byte = chunk
                .iter()
                .enumerate()
                .fold(0u8, |byte, (k, &bit)| byte | (u8::from(bit) << k));
            self.byte(byte)
        })
    }

    /// The number of bytes written.
    pub fn finish(self) -> usize {
        self.len
    }
}

/// Reads an encoded stamp from a byte slice, front to back.
#[derive(Debug)]
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Starts reading `bytes` as a stamp of the spec with `fingerprint`:
    /// checks the header.
    pub fn new(bytes: &'a [u8], fingerprint: u64) -> Result<Self, StampError> {
        let mut reader = Reader { rest: bytes };
        if reader.byte()? != VERSION {
            return Err(StampError::WrongVersion);
        }
        if reader.u64()? != fingerprint {
            return Err(StampError::WrongSpec);
        }
        Ok(reader)
    }

    /// One byte.
    pub fn byte(&mut self) -> Result<u8, StampError> {
        let (&first, rest) = self.rest.split_first().ok_or(StampError::Malformed)?;
        self.rest = rest;
        Ok(first)
    }

    /// A bool byte: 0 or 1.
    pub fn bool(&mut self) -> Result<bool, StampError> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(StampError::Malformed),
        }
    }

    /// A `u32`, little-endian.
    pub fn u32(&mut self) -> Result<u32, StampError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A `u64`, little-endian.
    pub fn u64(&mut self) -> Result<u64, StampError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A clock component: a varint below [`CLOCK_LIMIT`].
    pub fn clock(&mut self) -> Result<u64, StampError> {
        match self.varint()? {
            value if value < CLOCK_LIMIT => Ok(value),
            _ => Err(StampError::Malformed),
        }
    }

    /// An LEB128 varint (see [`Writer::varint`]) in its shortest form.
    pub fn varint(&mut self) -> Result<u64, StampError> {
        let mut value = 0u64;
        for k in 0..MAX_VARINT_BYTES {
            let byte = self.byte()?;
            let payload = u64::from(byte & 0x7f);
            let shift = 7 * k as u32;
            // The tenth byte holds bit 63 only.
            if shift == 63 && payload > 1 {
                return Err(StampError::Malformed);
            }
            value |= payload << shift;
            if byte & 0x80 == 0 {
                // A zero last byte after the first is an overlong encoding.
                return if byte == 0 && k > 0 {
                    Err(StampError::Malformed)
                } else {
                    Ok(value)
                };
            }
        }
        Err(StampError::Malformed)
    }

    /// A bit set of `N` bits (see [`Writer::bits`]); set unused bits are malformed.
    pub fn bits<const N: usize>(&mut self) -> Result<[bool; N], StampError> {
        let mut bits = [false; N];
        for chunk in bits.chunks_mut(8) {
            let byte = self.byte()?;
            if u16::from(byte) >> chunk.len() != 0 {
                return Err(StampError::Malformed);
            }
            for (k, bit) in chunk.iter_mut().enumerate() {
                *bit = byte & (1 << k) != 0;
            }
        }
        Ok(bits)
    }

    /// The end of the stamp: no bytes may follow.
    pub fn finish(self) -> Result<(), StampError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(StampError::Malformed)
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], StampError> {
        let (head, rest) = self
            .rest
            .split_first_chunk::<N>()
            .ok_or(StampError::Malformed)?;
        self.rest = rest;
        Ok(*head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: u64 = 0x0123_4567_89ab_cdef;

    fn written(f: impl FnOnce(&mut Writer<'_>) -> Result<(), StampError>) -> ([u8; 64], usize) {
        let mut out = [0u8; 64];
        let mut w = Writer::new(&mut out, SPEC).expect("room for the header");
        f(&mut w).expect("room");
        let len = w.finish();
        (out, len)
    }

    #[test]
    fn header_is_version_then_little_endian_fingerprint() {
        let (out, len) = written(|_| Ok(()));
        assert_eq!(len, HEADER_BYTES);
        assert_eq!(
            out[..len],
            [VERSION, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01]
        );
    }

    #[test]
    fn varints_by_hand() {
        for (value, bytes) in [
            (0u64, &[0x00][..]),
            (1, &[0x01]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (300, &[0xac, 0x02]),
            (
                u64::MAX,
                &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            ),
        ] {
            let (out, len) = written(|w| w.varint(value));
            assert_eq!(&out[HEADER_BYTES..len], bytes, "{value}");
            let mut r = Reader::new(&out[..len], SPEC).expect("header");
            assert_eq!(r.varint(), Ok(value));
            assert_eq!(r.finish(), Ok(()));
        }
    }

    fn read_varint(body: &[u8]) -> Result<u64, StampError> {
        let (mut out, _) = written(|_| Ok(()));
        out[HEADER_BYTES..HEADER_BYTES + body.len()].copy_from_slice(body);
        Reader::new(&out[..HEADER_BYTES + body.len()], SPEC)?.varint()
    }

    #[test]
    fn non_canonical_varints_are_malformed() {
        // Overlong zero and one, 2^64 (an eleventh significant bit), unterminated.
        assert_eq!(read_varint(&[0x80, 0x00]), Err(StampError::Malformed));
        assert_eq!(read_varint(&[0x81, 0x80, 0x00]), Err(StampError::Malformed));
        let too_big = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02];
        assert_eq!(read_varint(&too_big), Err(StampError::Malformed));
        assert_eq!(read_varint(&[0xff; 11]), Err(StampError::Malformed));
        assert_eq!(read_varint(&[0x80]), Err(StampError::Malformed));
    }

    #[test]
    fn bit_sets_by_hand() {
        let bits = [
            true, false, true, true, false, false, false, false, false, true,
        ];
        let (out, len) = written(|w| w.bits(&bits));
        assert_eq!(out[HEADER_BYTES..len], [0b0000_1101, 0b0000_0010]);
        let mut r = Reader::new(&out[..len], SPEC).expect("header");
        assert_eq!(r.bits::<10>(), Ok(bits));
        // Bit 10 is padding: set, it is malformed.
        let mut padded = out;
        padded[HEADER_BYTES + 1] |= 0b100;
        let mut r = Reader::new(&padded[..len], SPEC).expect("header");
        assert_eq!(r.bits::<10>(), Err(StampError::Malformed));
        // No bits: no bytes.
        let (_, len) = written(|w| w.bits(&[]));
        assert_eq!(len, HEADER_BYTES);
    }

    #[test]
    fn fixed_width_values_and_bools() {
        let (out, len) = written(|w| {
            w.u32(0x0102_0304)?;
            w.u64(u64::MAX - 1)?;
            w.bool(true)
        });
        assert_eq!(out[HEADER_BYTES..HEADER_BYTES + 4], [4, 3, 2, 1]);
        let mut r = Reader::new(&out[..len], SPEC).expect("header");
        assert_eq!(r.u32(), Ok(0x0102_0304));
        assert_eq!(r.u64(), Ok(u64::MAX - 1));
        assert_eq!(r.bool(), Ok(true));
        assert_eq!(r.finish(), Ok(()));
        let mut two = out;
        two[len - 1] = 2;
        let mut r = Reader::new(&two[..len], SPEC).expect("header");
        r.u32().and(r.u64()).expect("values");
        assert_eq!(r.bool(), Err(StampError::Malformed));
    }

    #[test]
    fn rejections() {
        let (out, len) = written(|w| w.byte(7));
        assert_eq!(Reader::new(&[], SPEC).err(), Some(StampError::Malformed));
        assert_eq!(
            Reader::new(&out[..5], SPEC).err(),
            Some(StampError::Malformed)
        );
        assert_eq!(
            Reader::new(&out[..len], SPEC ^ 1).err(),
            Some(StampError::WrongSpec)
        );
        let mut other_version = out;
        other_version[0] = VERSION + 1;
        assert_eq!(
            Reader::new(&other_version[..len], SPEC).err(),
            Some(StampError::WrongVersion)
        );
        let r = Reader::new(&out[..len], SPEC).expect("header");
        assert_eq!(r.finish(), Err(StampError::Malformed), "a trailing byte");
        let mut r = Reader::new(&out[..len - 1], SPEC).expect("header");
        assert_eq!(r.byte(), Err(StampError::Malformed), "truncated");
    }

    #[test]
    fn a_full_buffer_is_reported() {
        let mut out = [0u8; HEADER_BYTES + 1];
        assert_eq!(
            Writer::new(&mut out[..4], SPEC).err(),
            Some(StampError::BufferTooSmall)
        );
        let mut w = Writer::new(&mut out, SPEC).expect("header");
        assert_eq!(w.varint(300), Err(StampError::BufferTooSmall));
    }

    /// RFC 4231 test case 1 (a 20-byte key: HMAC pads keys with zeros, so the
    /// same key padded to 32 bytes gives the same tag), truncated to 16 bytes.
    #[test]
    fn the_tag_is_hmac_sha_256_truncated() {
        let mut secret = [0u8; 32];
        secret[..20].fill(0x0b);
        let key = StampKey::new(&secret);
        let mut out = [0u8; 8 + TAG_BYTES];
        out[..8].copy_from_slice(b"Hi There");
        assert_eq!(seal(&key, &mut out, 8), Ok(8 + TAG_BYTES));
        let expected = [
            0xb0, 0x34, 0x4c, 0x61, 0xd8, 0xdb, 0x38, 0x53, 0x5c, 0xa8, 0xaf, 0xce, 0xaf, 0x0b,
            0xf1, 0x2b,
        ];
        assert_eq!(out[8..], expected);
        assert_eq!(open(&key, &out), Ok(&b"Hi There"[..]));
        extern crate std;
        assert_eq!(std::format!("{key:?}"), "StampKey(..)");
    }

    #[test]
    fn every_flipped_bit_and_every_other_key_is_refused() {
        let key = StampKey::new(&[7; 32]);
        let mut out = [0u8; 20 + TAG_BYTES];
        for (i, b) in out.iter_mut().take(20).enumerate() {
            *b = i as u8;
        }
        let len = seal(&key, &mut out, 20).expect("fits");
        for bit in 0..len * 8 {
            let mut flipped = out;
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                open(&key, &flipped),
                Err(StampError::Unauthenticated),
                "bit {bit}"
            );
        }
        assert_eq!(
            open(&StampKey::new(&[8; 32]), &out),
            Err(StampError::Unauthenticated)
        );
        for short in 0..len {
            assert_eq!(open(&key, &out[..short]), Err(StampError::Unauthenticated));
        }
        assert_eq!(
            seal(&key, &mut [0u8; 20 + TAG_BYTES - 1], 20),
            Err(StampError::BufferTooSmall)
        );
        assert_eq!(
            seal(&key, &mut [0u8; 4], 5),
            Err(StampError::BufferTooSmall)
        );
    }

    #[test]
    fn clock_components_stay_below_the_limit() {
        let mut out = [0u8; HEADER_BYTES + 3 * MAX_VARINT_BYTES];
        let mut w = Writer::new(&mut out, SPEC).expect("header");
        w.varint(CLOCK_LIMIT - 1).expect("fits");
        w.varint(CLOCK_LIMIT).expect("fits");
        w.varint(u64::MAX).expect("fits");
        let len = w.finish();
        let mut r = Reader::new(&out[..len], SPEC).expect("header");
        assert_eq!(r.clock(), Ok(CLOCK_LIMIT - 1));
        assert_eq!(r.clock(), Err(StampError::Malformed));
        assert_eq!(r.clock(), Err(StampError::Malformed));
    }
}
