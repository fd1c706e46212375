//! Unsigned integers of a fixed width (64 N bits): the Dutch pairing's edge weights, where every criterion
//! owns a field of bits and a higher field outweighs everything below it.
//!
//! Only what the weighted matching and the weights need: add, subtract, halve, shift left by a
//! few bits, compare. The caller keeps every value far below the top (see [`Wide::BITS`]).

use std::cmp::Ordering;

/// A non-negative integer below 2^(64 N), least significant limb first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Wide<N> {
    /// How many bits a value may hold.
    pub const BITS: u32 = 64 * N as u32;
    pub const ZERO: Wide<N> = Wide([0; N]);

    pub fn from_u64(value: u64) -> Wide<N> {
        let mut limbs = [0; N];
        limbs[0] = value;
        Wide(limbs)
    }

    /// 2^bits − 1 (bits below [`Wide::BITS`]).
    pub fn ones(bits: u32) -> Wide<N> {
        let mut limbs = [0; N];
        for (i, limb) in limbs.iter_mut().enumerate() {
            let low = 64 * i as u32;
            if bits >= low + 64 {
                *limb = u64::MAX;
            } else if bits > low {
                *limb = (1u64 << (bits - low)) - 1;
            }
        }
        Wide(limbs)
    }

    /// The lowest 64 bits.
    #[cfg(test)]
    pub fn low(&self) -> u64 {
        self.0[0]
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// self · 2^bits + value: the next field of a weight (value below 2^bits).
    pub fn push(self, bits: u32, value: Wide<N>) -> Wide<N> {
        self.shl(bits).add(value)
    }

    /// 2^bits.
    pub fn bit(bits: u32) -> Wide<N> {
        Wide::from_u64(1).shl(bits)
    }

    pub fn shl(self, bits: u32) -> Wide<N> {
        let (words, rest) = ((bits / 64) as usize, bits % 64);
        let mut out = [0u64; N];
        for i in (words..N).rev() {
            let source = i - words;
            let mut limb = self.0[source] << rest;
            if rest > 0 && source > 0 {
                limb |= self.0[source - 1] >> (64 - rest);
            }
            out[i] = limb;
        }
        Wide(out)
    }

    /// Half, rounded down.
    pub fn half(self) -> Wide<N> {
        let mut out = [0u64; N];
        for (i, limb) in out.iter_mut().enumerate() {
            let high = self.0.get(i + 1).map_or(0, |h| h << 63);
            *limb = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }

    /// Sum modulo 2^(64 N) (callers stay far below).
    pub fn add(self, other: Wide<N>) -> Wide<N> {
        let mut out = [0u64; N];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }

    /// Difference modulo 2^(64 N): callers subtract only what is there, or add it back later.
    pub fn sub(self, other: Wide<N>) -> Wide<N> {
        let mut out = [0u64; N];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *limb = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let top = self.0.iter().rposition(|&l| l != 0).unwrap_or(0);
        write!(f, "0x{:x}", self.0[top])?;
        for limb in self.0[..top].iter().rev() {
            write!(f, "_{limb:016x}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    type Wide = super::Wide<12>;

    #[test]
    fn arithmetic_carries_across_limbs() {
        let max = Wide::from_u64(u64::MAX);
        let sum = max.add(Wide::from_u64(1));
        assert_eq!(sum, Wide::bit(64));
        assert_eq!(sum.sub(Wide::from_u64(1)), max);
        assert_eq!(Wide::bit(200).half(), Wide::bit(199));
        assert_eq!(Wide::ones(130).add(Wide::from_u64(1)), Wide::bit(130));
        assert!(Wide::bit(300) > Wide::ones(299));
        assert_eq!(
            Wide::from_u64(5).push(70, Wide::from_u64(3)),
            Wide::from_u64(5).shl(70).add(Wide::from_u64(3))
        );
        assert_eq!(Wide::from_u64(3).shl(63).half(), Wide::from_u64(3).shl(62));
    }
}
