//! Room arithmetic for SPEC's reused memory: the amounts a comparison proves a
//! buffer can still take and a growth appends (a constant plus lengths of places,
//! as the source spells them: `payload.len() + 4`), and the ledger that charges
//! one body's growths, in order, to the proofs they cite. Reading comparisons is
//! `allowances`' work; the verdicts are `judge`'s.

use hir_def::hir::ExprId;
use rustc_hash::FxHashMap;

/// A count of elements (bytes for a `String`): a constant plus the lengths of
/// places. Linear, never negative.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Amount {
    pub constant: u128,
    /// Places whose `len()` is added, sorted; a place may be added more than once.
    pub lengths: Vec<String>,
}

impl Amount {
    pub(crate) fn constant(n: u128) -> Amount {
        Amount { constant: n, lengths: Vec::new() }
    }

    pub(crate) fn length_of(place: String) -> Amount {
        Amount { constant: 0, lengths: vec![place] }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.constant == 0 && self.lengths.is_empty()
    }

    /// `self + other`; `None` on overflow.
    pub(crate) fn plus(&self, other: &Amount) -> Option<Amount> {
        let mut lengths = self.lengths.clone();
        lengths.extend(other.lengths.iter().cloned());
        lengths.sort();
        Some(Amount { constant: self.constant.checked_add(other.constant)?, lengths })
    }

    /// `self` less one length of `place`, when it has one.
    pub(crate) fn without_length_of(&self, place: &str) -> Option<Amount> {
        let at = self.lengths.iter().position(|p| p == place)?;
        let mut rest = self.clone();
        rest.lengths.remove(at);
        Some(rest)
    }

    /// Whether `self` is at least `need`, whatever the lengths are.
    pub(crate) fn covers(&self, need: &Amount) -> bool {
        if self.constant < need.constant {
            return false;
        }
        let mut left = self.lengths.clone();
        need.lengths.iter().all(|place| match left.iter().position(|p| p == place) {
            Some(at) => {
                left.remove(at);
                true
            }
            None => false,
        })
    }

    /// `self - need`, where `self` covers `need`.
    fn minus(&self, need: &Amount) -> Amount {
        let mut rest = self.clone();
        rest.constant -= need.constant;
        for place in &need.lengths {
            if let Some(at) = rest.lengths.iter().position(|p| p == place) {
                rest.lengths.remove(at);
            }
        }
        rest
    }

    /// The largest `q` with `q * passes <= self` whatever the lengths are: the
    /// room each pass of a loop that runs at most `passes` times may use. `None`
    /// when `passes` is zero.
    pub(crate) fn times_within(&self, passes: &Amount) -> Option<u128> {
        if passes.is_zero() {
            return None;
        }
        let mut q = self.constant.checked_div(passes.constant).unwrap_or(u128::MAX);
        let mut distinct = passes.lengths.clone();
        distinct.dedup();
        for place in &distinct {
            let wanted = passes.lengths.iter().filter(|p| *p == place).count() as u128;
            let held = self.lengths.iter().filter(|p| *p == place).count() as u128;
            q = q.min(held / wanted);
        }
        Some(q)
    }

    /// `self` taken `q` times.
    pub(crate) fn times(&self, q: u128) -> Option<Amount> {
        let count = usize::try_from(q).ok().filter(|&q| q <= 64)?;
        let mut lengths = Vec::new();
        for _ in 0..count {
            lengths.extend(self.lengths.iter().cloned());
        }
        lengths.sort();
        Some(Amount { constant: self.constant.checked_mul(q)?, lengths })
    }

    /// Whether the amount reads the length of `place` or of something inside it.
    pub(crate) fn reads(&self, place: &str) -> bool {
        self.lengths.iter().any(|length| length == place || length.starts_with(&format!("{place}.")))
    }

    /// The amount as the source would spell it: `payload.len() + 4`.
    pub(crate) fn describe(&self) -> String {
        let mut terms: Vec<String> = self.lengths.iter().map(|place| format!("{place}.len()")).collect();
        if self.constant > 0 || terms.is_empty() {
            terms.push(self.constant.to_string());
        }
        terms.join(" + ")
    }
}

/// The passes of a loop that runs at most a known number of times, each using a
/// share of a proof made before the loop.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Pass<At = ExprId> {
    /// The loop.
    pub at: At,
    /// The room each pass may use.
    pub room: Amount,
    /// What the passes take of the proof in all (the loop's bound times `room`).
    pub taken: Amount,
}

/// The proof a growth cites: the comparison that proves room and the room it
/// proves (inside a bounded loop, with the share of it each pass uses), and what
/// the growth appends.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct RoomProof<At = ExprId> {
    pub at: At,
    pub amount: Amount,
    pub pass: Option<Pass<At>>,
    pub need: Amount,
}

/// The room left of each proof in one body, as its growths are charged in order:
/// a proof covers the growths that together append no more than it proves. A
/// loop's passes take their whole share of the proof before them once, when the
/// first growth in the loop is charged, and their growths are charged to one pass.
pub(crate) struct Ledger<At = ExprId> {
    /// Per proof, and per pass of a loop over it.
    left: FxHashMap<(At, Option<At>), Amount>,
}

impl<At> Default for Ledger<At> {
    fn default() -> Self {
        Ledger { left: FxHashMap::default() }
    }
}

impl<At: Copy + Eq + std::hash::Hash> Ledger<At> {
    /// Charges a growth citing `proof`; whether the room proven covers it.
    pub(crate) fn charge(&mut self, proof: &RoomProof<At>) -> bool {
        let key = (proof.at, proof.pass.as_ref().map(|pass| pass.at));
        if let Some(pass) = proof.pass.as_ref().filter(|_| !self.left.contains_key(&key)) {
            let whole = self.left.entry((proof.at, None)).or_insert_with(|| proof.amount.clone());
            if !whole.covers(&pass.taken) {
                return false;
            }
            *whole = whole.minus(&pass.taken);
            self.left.insert(key, pass.room.clone());
        }
        let left = self.left.entry(key).or_insert_with(|| proof.amount.clone());
        if !left.covers(&proof.need) {
            return false;
        }
        *left = left.minus(&proof.need);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(constant: u128, lengths: &[&str]) -> Amount {
        let mut lengths: Vec<String> = lengths.iter().map(|p| (*p).to_owned()).collect();
        lengths.sort();
        Amount { constant, lengths }
    }

    fn proof(at: u32, amount: Amount, need: Amount) -> RoomProof<u32> {
        RoomProof { at, amount, pass: None, need }
    }

    #[test]
    fn an_amount_covers_what_its_terms_cover() {
        assert!(sum(4, &["payload"]).covers(&sum(4, &[])));
        assert!(sum(4, &["payload"]).covers(&sum(0, &["payload"])));
        assert!(!sum(4, &["payload"]).covers(&sum(5, &[])));
        assert!(!sum(4, &["payload"]).covers(&sum(0, &["other"])));
        assert!(!sum(0, &["xs"]).covers(&sum(0, &["xs", "xs"])));
        assert_eq!(sum(4, &["payload"]).describe(), "payload.len() + 4");
        assert_eq!(sum(16, &[]).times_within(&sum(4, &[])), Some(4));
        assert_eq!(sum(3, &["xs", "xs"]).times_within(&sum(0, &["xs"])), Some(2));
        assert_eq!(sum(3, &["xs"]).times_within(&sum(1, &["xs"])), Some(1));
    }

    #[test]
    fn the_ledger_charges_growths_until_the_room_is_used() {
        let room = sum(4, &["payload"]);
        let mut ledger = Ledger::default();
        assert!(ledger.charge(&proof(1, room.clone(), sum(4, &[]))));
        assert!(ledger.charge(&proof(1, room.clone(), sum(0, &["payload"]))));
        assert!(!ledger.charge(&proof(1, room.clone(), sum(1, &[]))));
        // A loop's passes take their whole share of the proof before them once.
        let mut ledger = Ledger::default();
        let pass = Pass { at: 2, room: sum(1, &[]), taken: sum(16, &[]) };
        let in_loop = RoomProof { at: 1, amount: sum(16, &[]), pass: Some(pass.clone()), need: sum(1, &[]) };
        assert!(ledger.charge(&in_loop));
        assert!(!ledger.charge(&in_loop), "one element a pass");
        assert!(!ledger.charge(&proof(1, sum(16, &[]), sum(1, &[]))), "the loop took it all");
        // A second loop over the same proof finds nothing left.
        let again = RoomProof { pass: Some(Pass { at: 3, ..pass }), ..in_loop };
        assert!(!ledger.charge(&again));
    }
}
