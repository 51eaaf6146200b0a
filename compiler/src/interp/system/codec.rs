//! The byte encoding of the interpreter's stamps ([`Stamp`]), driven by the
//! stamp layout: the bytes the generated `Stamp::to_bytes` writes (docs/cpl.md,
//! "The stamp layout"), through the runtime's [`Writer`] and [`Reader`], so
//! that `hindsight check --stamp-key-file` carries stamps as sealed bytes as a
//! deployed system does, and the interpreter's send+receive is measured with
//! an encoding as the generated one is. Decoding checks the framing (version,
//! fingerprint, lengths, clock components below the limit, a canonical bit
//! set, no entry of a lifeline the clock has not seen); whether the values
//! suit the receiver is left to `LifelineMonitor::on_recv`, which checks every
//! entry's type.

use super::Stamp;
use crate::ir::system::{EntryKind, StampLayout};
use crate::types::{Ty, Value};
use hindsight_runtime::stamp::{open, seal, Reader, StampError, StampKey, Writer, TAG_BYTES};

/// Encodes and decodes the stamps of one layout.
#[derive(Clone, Debug)]
pub struct LayoutCodec<'t> {
    layout: &'t StampLayout,
    fingerprint: u64,
}

impl<'t> LayoutCodec<'t> {
    /// The codec of `layout` (computes its fingerprint once).
    pub fn new(layout: &'t StampLayout) -> Self {
        LayoutCodec {
            layout,
            fingerprint: layout.fingerprint(),
        }
    }

    /// The most bytes [`LayoutCodec::encode`] writes: as the generated `Stamp::BYTES`.
    pub fn max_bytes(&self) -> usize {
        self.layout.max_bytes()
    }

    /// Writes `stamp` into `out`; returns its length.
    pub fn encode(&self, stamp: &Stamp, out: &mut [u8]) -> Result<usize, StampError> {
        let mut w = Writer::new(out, stamp.fingerprint)?;
        for &component in &stamp.clock {
            w.varint(component)?;
        }
        let entries: Vec<_> = self.layout.entries.iter().zip(&stamp.entries).collect();
        for chunk in entries.chunks(8) {
            let mut bits = [false; 8];
            for (bit, (entry, value)) in bits.iter_mut().zip(chunk) {
                *bit = match entry.kind {
                    EntryKind::Formula => **value == Some(Value::Bool(true)),
                    EntryKind::Var { .. } => value.is_some(),
                };
            }
            w.bits(bits.get(..chunk.len()).unwrap_or(&bits))?;
        }
        for (entry, value) in entries {
            if let (EntryKind::Var { value_bytes, .. }, Some(value)) = (entry.kind, value) {
                match *value {
                    Value::Bool(b) => w.bool(b)?,
                    Value::Int(i) => w.u64(i as u64)?,
                    Value::Float(f) => w.u64(f.to_bits())?,
                    Value::Enum(k) if value_bytes == 1 => w.byte(k as u8)?,
                    Value::Enum(k) => w.u32(k)?,
                }
            }
        }
        Ok(w.finish())
    }

    /// Reads a stamp of this layout.
    pub fn decode(&self, bytes: &[u8]) -> Result<Stamp, StampError> {
        let mut r = Reader::new(bytes, self.fingerprint)?;
        let clock = self
            .layout
            .lifelines
            .iter()
            .map(|_| r.clock())
            .collect::<Result<Vec<u64>, _>>()?;
        let mut bits = Vec::with_capacity(self.layout.entries.len());
        for chunk in self.layout.entries.chunks(8) {
            let byte = r.byte()?;
            if u16::from(byte) >> chunk.len() != 0 {
                return Err(StampError::Malformed);
            }
            bits.extend((0..chunk.len()).map(|k| byte >> k & 1 == 1));
        }
        let mut entries = Vec::with_capacity(bits.len());
        for (entry, bit) in self.layout.entries.iter().zip(bits) {
            let seen = clock.get(entry.owner.index()).is_some_and(|&c| c > 0);
            if bit && !seen {
                return Err(StampError::Malformed);
            }
            entries.push(match entry.kind {
                EntryKind::Formula => seen.then_some(Value::Bool(bit)),
                EntryKind::Var { .. } if !bit => None,
                EntryKind::Var {
                    ty, value_bytes, ..
                } => Some(match ty {
                    Ty::Bool => Value::Bool(r.bool()?),
                    Ty::Int => Value::Int(r.u64()? as i64),
                    Ty::Float => Value::Float(f64::from_bits(r.u64()?)),
                    Ty::Enum(_) if value_bytes == 1 => Value::Enum(u32::from(r.byte()?)),
                    Ty::Enum(_) => Value::Enum(r.u32()?),
                }),
            });
        }
        r.finish()?;
        Ok(Stamp {
            fingerprint: self.fingerprint,
            clock,
            entries,
        })
    }

    /// [`LayoutCodec::encode`], sealed under `key`: the encoding and its tag.
    pub fn seal(&self, stamp: &Stamp, key: &StampKey) -> Result<Vec<u8>, StampError> {
        let mut out = vec![0u8; self.max_bytes() + TAG_BYTES];
        let len = self.encode(stamp, &mut out)?;
        let len = seal(key, &mut out, len)?;
        out.truncate(len);
        Ok(out)
    }

    /// [`LayoutCodec::decode`] of sealed bytes, once their tag checks out.
    pub fn open(&self, bytes: &[u8], key: &StampKey) -> Result<Stamp, StampError> {
        self.decode(open(key, bytes)?)
    }

    /// The bytes a message carries `stamp` as: encoded, and sealed under
    /// `key` when the system's stamps are authenticated.
    pub fn to_bytes(&self, stamp: &Stamp, key: Option<&StampKey>) -> Result<Vec<u8>, StampError> {
        if let Some(key) = key {
            return self.seal(stamp, key);
        }
        let mut out = vec![0u8; self.max_bytes()];
        let len = self.encode(stamp, &mut out)?;
        out.truncate(len);
        Ok(out)
    }

    /// The stamp of `bytes` [`to_bytes`](Self::to_bytes) wrote with `key`.
    pub fn from_bytes(&self, bytes: &[u8], key: Option<&StampKey>) -> Result<Stamp, StampError> {
        match key {
            Some(key) => self.open(bytes, key),
            None => self.decode(bytes),
        }
    }
}
