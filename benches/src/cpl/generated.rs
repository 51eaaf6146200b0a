//! The generated lifeline monitors of the CPL benchmark systems (written by
//! the build script) running a workload, with stamps carried as bytes; and the
//! generated stamps of the synthetic systems.

use hindsight_runtime::{Value, Verdict};

use super::workload::{Changes, Workload};
use super::{CplRun, Cursor, RunError};

/// The code generated from `specs/review.hind`.
pub mod review_spec {
    hindsight_runtime::include_monitors!("review");
}

/// The code generated from `specs/deploy.hind`.
pub mod deploy_spec {
    hindsight_runtime::include_monitors!("deploy");
}

use deploy_spec::deploy::{Builder, Deployer, Tester};
use review_spec::review::{Committer, Security, TestRunner};
use review_spec::Status;

/// Typed store changes of a generated lifeline, from untyped ones.
pub trait FromUntyped {
    /// The changes `changes` makes (the last one of each variable wins).
    fn from_untyped(changes: &[(usize, Value)]) -> Self;
}

/// The last `int` assigned to variable `var`.
fn int(changes: &[(usize, Value)], var: usize) -> Option<i64> {
    changes.iter().rev().find_map(|&(x, v)| match v {
        Value::Int(i) if x == var => Some(i),
        _ => None,
    })
}

/// The last `bool` assigned to variable `var`.
fn boolean(changes: &[(usize, Value)], var: usize) -> Option<bool> {
    changes.iter().rev().find_map(|&(x, v)| match v {
        Value::Bool(b) if x == var => Some(b),
        _ => None,
    })
}

/// The last `Status` assigned to variable `var`.
fn status(changes: &[(usize, Value)], var: usize) -> Option<Status> {
    changes.iter().rev().find_map(|&(x, v)| match v {
        Value::Enum(k) if x == var => Status::from_index(k),
        _ => None,
    })
}

impl FromUntyped for TestRunner::Changes {
    fn from_untyped(c: &[(usize, Value)]) -> Self {
        Self {
            cand: int(c, 0),
            status: status(c, 1),
        }
    }
}

impl FromUntyped for Security::Changes {
    fn from_untyped(c: &[(usize, Value)]) -> Self {
        Self {
            cand: int(c, 0),
            status: status(c, 1),
        }
    }
}

impl FromUntyped for Committer::Changes {
    fn from_untyped(c: &[(usize, Value)]) -> Self {
        Self { cand: int(c, 0) }
    }
}

impl FromUntyped for Builder::Changes {
    fn from_untyped(c: &[(usize, Value)]) -> Self {
        Self {
            rev: int(c, 0),
            ok: boolean(c, 1),
            fail: boolean(c, 2),
            warnings: int(c, 3),
        }
    }
}

impl FromUntyped for Tester::Changes {
    fn from_untyped(c: &[(usize, Value)]) -> Self {
        Self {
            rev: int(c, 0),
            ok: boolean(c, 1),
            fail: boolean(c, 2),
            flaky: int(c, 3),
        }
    }
}

impl FromUntyped for Deployer::Changes {
    fn from_untyped(c: &[(usize, Value)]) -> Self {
        Self { rev: int(c, 0) }
    }
}

/// Converts every list of changes.
fn typed<T: FromUntyped>(changes: &[Changes]) -> Vec<T> {
    changes.iter().map(|c| T::from_untyped(c)).collect()
}

/// A run of one system's generated monitors: the owner, the sender of the
/// benchmarked messages and the other lifeline the prefix sends from (the
/// only lifelines the workloads use), each given by its index and module.
macro_rules! generated_run {
    (
        $(#[$doc:meta])*
        $run:ident, $stamp:ty,
        owner: $owner_index:literal => $owner:ident,
        sender: $sender_index:literal => $sender:ident,
        other: $other_index:literal => $other:ident $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $run {
            owner: $owner::Monitor,
            sender: $sender::Monitor,
            other: $other::Monitor,
            acts: Vec<$owner::Changes>,
            sends: Vec<$sender::Changes>,
            receives: Vec<$owner::Changes>,
            act: Cursor,
            message: Cursor,
            buffer: [u8; <$stamp>::BYTES],
            len: usize,
        }

        impl $run {
            /// The monitors after the workload's prefix; an error if the
            /// workload is not one of this system's.
            pub fn new(workload: &Workload) -> Result<Self, RunError> {
                if (workload.owner, workload.sender) != ($owner_index, $sender_index) {
                    return Err("the workload's owner or sender is not this run's".into());
                }
                let (sends, receives): (Vec<Changes>, Vec<Changes>) =
                    workload.messages.iter().cloned().unzip();
                let mut run = $run {
                    owner: $owner::Monitor::new(),
                    sender: $sender::Monitor::new(),
                    other: $other::Monitor::new(),
                    acts: typed(&workload.acts),
                    sends: typed(&sends),
                    receives: typed(&receives),
                    act: Cursor::new(workload.acts.len()),
                    message: Cursor::new(workload.messages.len()),
                    buffer: [0; <$stamp>::BYTES],
                    len: 0,
                };
                for message in &workload.prefix {
                    let send = &message.send;
                    let stamp = match message.from {
                        $sender_index => run.sender.on_send(&FromUntyped::from_untyped(send))?,
                        $other_index => run.other.on_send(&FromUntyped::from_untyped(send))?,
                        _ => return Err("a prefix message from an unexpected lifeline".into()),
                    };
                    let recv = FromUntyped::from_untyped(&message.recv);
                    run.carry(stamp, &recv)?;
                }
                Ok(run)
            }

            /// Carries `stamp` to the owner as bytes; its receive with `changes`.
            #[inline]
            fn carry(
                &mut self,
                stamp: $stamp,
                changes: &$owner::Changes,
            ) -> Result<usize, RunError> {
                self.len = stamp.to_bytes(&mut self.buffer)?;
                let stamp = <$stamp>::from_bytes(self.last_stamp())?;
                self.owner.on_recv(&stamp, changes)?;
                Ok(self.len)
            }
        }

        impl CplRun for $run {
            #[inline]
            fn act(&mut self) -> Result<(), RunError> {
                let changes = self.acts.get(self.act.advance()).ok_or("no acts")?;
                self.owner.on_act(changes);
                Ok(())
            }

            #[inline]
            fn choice(&mut self) -> Result<Verdict, RunError> {
                let changes = self.acts.get(self.act.advance()).ok_or("no acts")?;
                let guards = self.owner.on_choice(changes).to_array();
                Ok(guards.first().copied().unwrap_or(Verdict::Unknown))
            }

            #[inline]
            fn message(&mut self) -> Result<usize, RunError> {
                let k = self.message.advance();
                let (Some(send), Some(&recv)) = (self.sends.get(k), self.receives.get(k)) else {
                    return Err("no messages".into());
                };
                let stamp = self.sender.on_send(send)?;
                self.carry(stamp, &recv)
            }

            fn guard(&self) -> Verdict {
                let guards = self.owner.guards().to_array();
                guards.first().copied().unwrap_or(Verdict::Unknown)
            }

            fn last_stamp(&self) -> &[u8] {
                self.buffer.get(..self.len).unwrap_or_default()
            }
        }
    };
}

generated_run!(
    /// `may_merge` of `specs/review.hind` on the generated monitors: the
    /// Committer owns it, the TestRunner sends, the Security reports once.
    ReviewRun, review_spec::review::Stamp,
    owner: 3 => Committer,
    sender: 1 => TestRunner,
    other: 2 => Security,
);

generated_run!(
    /// `may_deploy` of `specs/deploy.hind` on the generated monitors: the
    /// Deployer owns it, the Builder sends, the Tester reports once.
    DeployRun, deploy_spec::deploy::Stamp,
    owner: 2 => Deployer,
    sender: 0 => Builder,
    other: 1 => Tester,
);

/// The generated stamps of the synthetic systems
/// ([`synthetic`](super::synthetic)): per system, its lifeline and guard
/// counts, `Stamp::BYTES` and `size_of::<Stamp>()`.
macro_rules! synthetic_stamps {
    ($($module:ident = $lifelines:literal, $guards:literal;)*) => {
        $(
            #[doc = concat!("The code generated for `", stringify!($module), "`.")]
            pub mod $module {
                include!(concat!(env!("OUT_DIR"), "/", stringify!($module), ".rs"));
            }
        )*

        /// Per synthetic system: (lifelines, guards, `Stamp::BYTES`, `size_of::<Stamp>()`).
        pub const SYNTHETIC_STAMPS: &[(usize, usize, usize, usize)] = &[
            $(($lifelines, $guards, $module::s::Stamp::BYTES, size_of::<$module::s::Stamp>()),)*
        ];
    };
}

synthetic_stamps! {
    synthetic_n2_g1 = 2, 1;
    synthetic_n2_g4 = 2, 4;
    synthetic_n2_g16 = 2, 16;
    synthetic_n4_g1 = 4, 1;
    synthetic_n4_g4 = 4, 4;
    synthetic_n4_g16 = 4, 16;
    synthetic_n8_g1 = 8, 1;
    synthetic_n8_g4 = 8, 4;
    synthetic_n8_g16 = 8, 16;
}
