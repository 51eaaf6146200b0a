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
//! | vector clock: one LEB128 varint per lifeline | 1-10 each |
//! | one bit per view entry (a formula's value, a variable's defined flag) | ⌈entries / 8⌉ |
//! | the value of every *defined* variable entry | 1 (bool, enum), 4 (enum of > 256 variants), 8 (int, float) |
//!
//! The encoding is canonical: the reader rejects overlong varints, set
//! padding bits, bool bytes other than 0 and 1, and trailing bytes, so a
//! stamp has exactly one encoding.

use core::fmt;

/// The format version written first in every encoded stamp.
pub const VERSION: u8 = 1;

/// Bytes of the header: the version and the 8-byte spec fingerprint.
pub const HEADER_BYTES: usize = 9;

/// The most bytes one varint-encoded `u64` takes.
pub const MAX_VARINT_BYTES: usize = 10;

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
    /// The sender's own clock component has reached `u64::MAX`: no further
    /// stamp could show progress.
    ClockSaturated,
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
        })
    }
}

impl core::error::Error for StampError {}

/// The byte encoding of a generated `Stamp`: what transports (and the
/// [`serde_bytes`] adaptor) need, whatever the system.
pub trait StampCodec: Sized {
    /// The most bytes an encoding takes.
    const BYTES: usize;

    /// Writes the encoding into `out`; returns its length.
    fn encode(&self, out: &mut [u8]) -> Result<usize, StampError>;

    /// Reads an encoding written by [`StampCodec::encode`] of the same spec.
    fn decode(bytes: &[u8]) -> Result<Self, StampError>;
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
}
