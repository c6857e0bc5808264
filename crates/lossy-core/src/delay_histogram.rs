//! Delay percentiles without keeping every sample (issue 29, delay metrics): a
//! log-linear histogram of nanoseconds in the manner of HdrHistogram (Gil Tene), with the
//! exact count, minimum, maximum and sum kept beside it (the bucket layout only; the
//! percentile rule below is this file's own).
//!
//! **Buckets.** A value below 2^(M+1) ns has its own bucket (exact). Above, each power of
//! two [2^h, 2^(h+1)) is cut into 2^M equal buckets of width 2^(h−M), so a bucket is never
//! wider than 1/2^M of the values it holds. M = 7: 128 buckets per octave.
//!
//! **Percentile.** Nearest rank: the p-th percentile of n samples is the k-th smallest,
//! k = ⌈p·n⌉ (at least 1) — a value that was observed, and defined for one sample;
//! interpolating between two ranks
//! would interpolate between buckets, which a histogram cannot do honestly. The histogram
//! returns the middle of the k-th sample's bucket, clamped to [min, max] (so a constant
//! series and a single sample come out exact).
//!
//! **Error bound.** The k-th smallest value v lies in a bucket [lo, lo + w − 1] with
//! lo ≥ 2^M·w; its middle is within (w − 1)/2 < v/2^(M+1) of v: **relative error below
//! 2^−8 ≈ 0.39 %** (none below 256 ns). The mean, min and max are exact.
//!
//! **Memory.** Buckets are allocated one octave (128 counters) at a time, when a value
//! first falls in it, and each octave's counters are as narrow as its largest count
//! allows: a byte each (128 B) until one would pass 255, then two (256 B) until one would
//! pass 65,535, then four (512 B). The counts stay exact, so the percentiles are the same
//! as with four bytes throughout; most octaves of a run never hold 256 samples in one
//! bucket (a flow's RTTs and one-way delays; a link's sojourns outside its few busiest
//! buckets): the 4,002 histograms of 1,000 bulk flows through a base station (10 s) need
//! 2.8 MB of counters this way instead of 10.4 MB (counted from each octave's largest
//! count). Nothing is allocated per sample once an octave exists (a widening is at most
//! two per octave). `DelayRecord` is 8 bytes until its first sample, so a flow or link
//! that never records costs nothing more.

/// Bits of sub-bucket resolution per octave.
const M: u32 = 7;
/// Buckets per octave (one chunk of counts).
const SUB: usize = 1 << M;
/// Chunks a u64 needs: chunk 0 holds [0, 2^M), chunk c ≥ 1 holds [2^(M+c−1), 2^(M+c)).
const CHUNKS: usize = 64 - M as usize + 1;

/// Counts of one octave, in the narrowest width that holds them (see **Memory**).
#[derive(Clone, Debug)]
enum Chunk {
    U8(Box<[u8; SUB]>),
    U16(Box<[u16; SUB]>),
    U32(Box<[u32; SUB]>),
}

impl Chunk {
    /// One more in bucket `i`.
    #[inline(always)]
    fn add(&mut self, i: usize) {
        match self {
            Chunk::U8(c) if c[i] < u8::MAX => c[i] += 1,
            Chunk::U16(c) if c[i] < u16::MAX => c[i] += 1,
            Chunk::U32(c) => c[i] += 1,
            _ => self.widen_and_add(i),
        }
    }

    /// Bucket `i` is full at this width: the octave's counts move to the next width.
    #[cold]
    #[inline(never)]
    fn widen_and_add(&mut self, i: usize) {
        *self = match self {
            Chunk::U8(c) => Chunk::U16(Box::new(c.map(u16::from))),
            Chunk::U16(c) => Chunk::U32(Box::new(c.map(u32::from))),
            Chunk::U32(_) => unreachable!("a u32 bucket is never full here"),
        };
        self.add(i);
    }

    /// `n` more in bucket `i` (pooling histograms), widening as `add` does.
    fn add_n(&mut self, i: usize, n: u64) {
        let total = self.count(i) + n;
        loop {
            match self {
                Chunk::U8(c) if total <= u8::MAX as u64 => return c[i] = total as u8,
                Chunk::U16(c) if total <= u16::MAX as u64 => return c[i] = total as u16,
                Chunk::U32(c) => return c[i] = u32::try_from(total).expect("under 2^32 samples per bucket"),
                Chunk::U8(c) => *self = Chunk::U16(Box::new(c.map(u16::from))),
                Chunk::U16(c) => *self = Chunk::U32(Box::new(c.map(u32::from))),
            }
        }
    }

    fn count(&self, i: usize) -> u64 {
        match self {
            Chunk::U8(c) => c[i] as u64,
            Chunk::U16(c) => c[i] as u64,
            Chunk::U32(c) => c[i] as u64,
        }
    }

    /// Bytes of its counters.
    fn bytes(&self) -> usize {
        SUB * match self {
            Chunk::U8(_) => 1,
            Chunk::U16(_) => 2,
            Chunk::U32(_) => 4,
        }
    }
}

#[derive(Clone, Debug)]
pub struct DelayHistogram {
    count: u64,
    /// u64::MAX and 0 before the first sample, so a sample updates them without a branch.
    min: u64,
    max: u64,
    sum: u128,
    /// Chunk c, allocated when a value first falls in it; the Vec grows to the highest
    /// (exactly: it grows at most once per octave).
    chunks: Vec<Option<Chunk>>,
}

impl Default for DelayHistogram {
    fn default() -> Self {
        DelayHistogram { count: 0, min: u64::MAX, max: 0, sum: 0, chunks: Vec::new() }
    }
}

/// (chunk, offset in the chunk) of value `v`.
#[inline]
fn bucket_of(v: u64) -> (usize, usize) {
    // h = ⌊log2 v⌋; below 2^M the value is its own bucket in chunk 0.
    let h = 63 - (v | 1).leading_zeros();
    if h < M {
        return (0, v as usize);
    }
    let shift = h - M;
    // v >> shift lies in [2^M, 2^(M+1)): its low M bits are the sub-bucket.
    ((shift + 1) as usize, (v >> shift) as usize & (SUB - 1))
}

/// The smallest value and the width of bucket (`chunk`, `offset`).
fn bucket_range(chunk: usize, offset: usize) -> (u64, u64) {
    if chunk == 0 {
        return (offset as u64, 1);
    }
    let shift = chunk as u32 - 1;
    (((SUB + offset) as u64) << shift, 1u64 << shift)
}

impl DelayHistogram {
    /// One sample of `ns` nanoseconds. Always inlined: once per packet in a queue's
    /// record, and rustc left it out of line once the counters had three widths.
    #[inline(always)]
    pub fn record(&mut self, ns: u64) {
        self.min = self.min.min(ns);
        self.max = self.max.max(ns);
        self.count += 1;
        self.sum += ns as u128;
        let (c, i) = bucket_of(ns);
        match self.chunks.get_mut(c) {
            Some(Some(chunk)) => chunk.add(i),
            _ => self.first_in_chunk(c, i),
        }
    }

    /// The first value of an octave: allocates its chunk (rare: once per octave).
    #[cold]
    #[inline(never)]
    fn first_in_chunk(&mut self, c: usize, i: usize) {
        debug_assert!(c < CHUNKS);
        if self.chunks.len() <= c {
            self.chunks.reserve_exact(c + 1 - self.chunks.len());
            self.chunks.resize_with(c + 1, || None);
        }
        self.chunks[c].get_or_insert_with(|| Chunk::U8(Box::new([0; SUB]))).add(i);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// Adds `other`'s samples to these, bucket by bucket: the histogram of both sample
    /// sets together, so a quantile of the pool is as exact as one of either (the
    /// summary's delay over all flows, Pantheon's pooled p95: `aggregate.rs`).
    pub fn merge(&mut self, other: &DelayHistogram) {
        if other.count == 0 {
            return;
        }
        self.count += other.count;
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        if self.chunks.len() < other.chunks.len() {
            self.chunks.resize_with(other.chunks.len(), || None);
        }
        for (mine, theirs) in self.chunks.iter_mut().zip(&other.chunks) {
            let Some(theirs) = theirs else { continue };
            let mine = mine.get_or_insert_with(|| Chunk::U8(Box::new([0; SUB])));
            for i in 0..SUB {
                let n = theirs.count(i);
                if n > 0 {
                    mine.add_n(i, n);
                }
            }
        }
    }

    /// Exact mean in nanoseconds (None without a sample).
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// Exact sum of the samples, in ns.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    pub fn min(&self) -> Option<u64> {
        (self.count > 0).then_some(self.min)
    }

    pub fn max(&self) -> Option<u64> {
        (self.count > 0).then_some(self.max)
    }

    /// The nearest-rank `num/den` quantile in nanoseconds (k = ⌈n·num/den⌉, at least 1),
    /// within 2^−8 of the true k-th smallest value (see the module's comment). Integer
    /// arithmetic, so that 0.95·100 is rank 95, not 96. None without a sample.
    pub fn quantile(&self, num: u64, den: u64) -> Option<f64> {
        debug_assert!(num <= den && den > 0);
        if self.count == 0 {
            return None;
        }
        let rank = ((self.count as u128 * num as u128).div_ceil(den as u128) as u64).max(1);
        let mut seen = 0u64;
        for (c, chunk) in self.chunks.iter().enumerate() {
            let Some(chunk) = chunk else { continue };
            for i in 0..SUB {
                seen += chunk.count(i);
                if seen >= rank {
                    let (lo, w) = bucket_range(c, i);
                    let mid = lo as f64 + (w - 1) as f64 / 2.0;
                    return Some(mid.clamp(self.min as f64, self.max as f64));
                }
            }
        }
        unreachable!("the counts add up to the sample count")
    }

    /// Bytes this histogram holds on the heap and inline.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.chunks.capacity() * std::mem::size_of::<Option<Chunk>>()
            + self.chunks.iter().flatten().map(Chunk::bytes).sum::<usize>()
    }
}

/// A histogram allocated at its first sample: 8 bytes for a flow or a link that never
/// records one.
#[derive(Clone, Debug, Default)]
pub struct DelayRecord(Option<Box<DelayHistogram>>);

impl DelayRecord {
    #[inline]
    pub fn record(&mut self, ns: u64) {
        match &mut self.0 {
            Some(h) => h.record(ns),
            None => self.first(ns),
        }
    }

    #[cold]
    #[inline(never)]
    fn first(&mut self, ns: u64) {
        self.0.get_or_insert_with(Box::default).record(ns);
    }

    /// The histogram, if a sample was recorded.
    pub fn get(&self) -> Option<&DelayHistogram> {
        self.0.as_deref()
    }

    /// The nearest-rank `num/den` quantile in milliseconds (None without a sample).
    pub fn quantile_ms(&self, num: u64, den: u64) -> Option<f64> {
        self.get().and_then(|h| h.quantile(num, den)).map(|ns| ns * 1e-6)
    }

    /// The exact mean in milliseconds (None without a sample).
    pub fn mean_ms(&self) -> Option<f64> {
        self.get().and_then(|h| h.mean()).map(|ns| ns * 1e-6)
    }

    /// Bytes held, the 8 inline ones included.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.get().map_or(0, |h| h.bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact nearest-rank quantile of sorted `v`: the ⌈n·num/den⌉-th smallest.
    fn exact(sorted: &[u64], num: u64, den: u64) -> u64 {
        let rank = (sorted.len() as u64 * num).div_ceil(den).max(1);
        sorted[rank as usize - 1]
    }

    const QUANTILES: [(u64, u64); 9] = [(0, 1), (1, 100), (1, 4), (1, 2), (3, 4), (9, 10), (95, 100), (99, 100), (1, 1)];

    /// A small xorshift: the test's data need no stream of the simulator.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn buckets_are_contiguous_and_never_wider_than_a_128th_of_their_values() {
        let mut next = 0u64;
        for c in 0..CHUNKS {
            for i in 0..SUB {
                let (lo, w) = bucket_range(c, i);
                assert_eq!(lo, next, "chunk {c} offset {i}");
                assert_eq!((bucket_of(lo), bucket_of(lo + (w - 1))), ((c, i), (c, i)));
                assert!(w == 1 || lo >= (SUB as u64) * w);
                next = lo.wrapping_add(w);
            }
        }
        // The last bucket ends at 2^64.
        assert_eq!(next, 0);
    }

    #[test]
    fn random_data_is_within_the_stated_relative_error_of_the_exact_quantiles() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for n in [1usize, 2, 3, 10, 100, 1_000, 20_000] {
            // Log-uniform from 1 ns to about 17 s, and a narrow band (an RTT's).
            for band in [false, true] {
                let mut v: Vec<u64> = (0..n)
                    .map(|_| {
                        let r = xorshift(&mut s);
                        if band { 40_000_000 + r % 5_000_000 } else { (r >> 30) >> (r % 34) }
                    })
                    .collect();
                let mut h = DelayHistogram::default();
                v.iter().for_each(|&x| h.record(x));
                v.sort_unstable();
                for (num, den) in QUANTILES {
                    let (want, got) = (exact(&v, num, den) as f64, h.quantile(num, den).unwrap());
                    assert!((got - want).abs() <= want / 256.0, "n {n} band {band} q {num}/{den}: {got} vs {want}");
                }
                assert_eq!(h.mean().unwrap(), v.iter().map(|&x| x as u128).sum::<u128>() as f64 / n as f64);
                assert_eq!((h.min(), h.max(), h.count()), (v.first().copied(), v.last().copied(), n as u64));
            }
        }
    }

    #[test]
    fn the_percentile_is_the_nearest_rank_not_an_interpolation() {
        let mut h = DelayHistogram::default();
        [4u64, 1, 3, 2].into_iter().for_each(|x| h.record(x));
        // Rank ⌈0.5·4⌉ = 2: the 2nd smallest, 2 (interpolation would say 2.5).
        assert_eq!(h.quantile(1, 2), Some(2.0));
        // Rank ⌈0.95·4⌉ = 4; ⌈0.25·4⌉ = 1; p0 is the smallest.
        assert_eq!(h.quantile(95, 100), Some(4.0));
        assert_eq!(h.quantile(1, 4), Some(1.0));
        assert_eq!(h.quantile(0, 1), Some(1.0));
        // 100 samples 1..=100: p95 is rank 95 exactly (a float 0.95·100 rounds up to 96).
        let mut h = DelayHistogram::default();
        (1..=100u64).for_each(|x| h.record(x));
        assert_eq!(h.quantile(95, 100), Some(95.0));
    }

    #[test]
    fn constant_data_and_a_single_sample_come_out_exact() {
        let mut h = DelayHistogram::default();
        (0..1000).for_each(|_| h.record(123_456_789));
        for (num, den) in QUANTILES {
            assert_eq!(h.quantile(num, den), Some(123_456_789.0));
        }
        assert_eq!(h.mean(), Some(123_456_789.0));
        let mut one = DelayRecord::default();
        one.record(40_650_000);
        assert_eq!((one.quantile_ms(1, 2), one.quantile_ms(99, 100), one.mean_ms()), (Some(40.65), Some(40.65), Some(40.65)));
    }

    #[test]
    fn no_sample_has_no_quantile_and_no_allocation() {
        let r = DelayRecord::default();
        assert_eq!((r.quantile_ms(95, 100), r.mean_ms(), r.bytes()), (None, None, 8));
        assert_eq!(DelayHistogram::default().quantile(1, 2), None);
        assert_eq!(std::mem::size_of::<DelayRecord>(), 8);
    }

    #[test]
    fn memory_grows_by_octave_not_by_sample() {
        let mut r = DelayRecord::default();
        // 100,000 RTT-like samples between 40 and 160 ms: three octaves (2^25..2^28 ns).
        let mut s = 7u64;
        (0..100_000).for_each(|_| r.record(40_000_000 + xorshift(&mut s) % 120_000_000));
        let chunks = r.get().unwrap().chunks.iter().flatten().count();
        assert_eq!(chunks, 3);
        assert!(r.bytes() < 2_000, "{}", r.bytes());
    }

    #[test]
    fn counters_widen_as_a_bucket_fills_and_stay_exact() {
        let width = |h: &DelayHistogram, c: usize| h.chunks[c].as_ref().map(Chunk::bytes);
        let mut h = DelayHistogram::default();
        // 255 samples in one bucket fit a byte; the 256th widens its octave to two
        // bytes, the 65,536th to four. The other buckets' counts move with it.
        (0..255).for_each(|_| h.record(40_000_000));
        h.record(50_000_000);
        let (c, _) = bucket_of(40_000_000);
        assert_eq!(width(&h, c), Some(SUB));
        h.record(40_000_000);
        assert_eq!(width(&h, c), Some(2 * SUB));
        (256..65_536).for_each(|_| h.record(40_000_000));
        assert_eq!(width(&h, c), Some(4 * SUB));
        assert_eq!(h.count(), 65_537);
        // Rank 65,536 is the last 40 ms sample, 65,537 the 50 ms one.
        assert_eq!(h.quantile(65_536, 65_537), Some(bucket_mid(40_000_000).max(40_000_000.0)));
        assert_eq!(h.quantile(1, 1), Some(bucket_mid(50_000_000).min(50_000_000.0)));
        // A narrow band of RTT-like samples, 1,000 of them: one byte per bucket.
        let mut r = DelayRecord::default();
        let mut s = 3u64;
        (0..1_000).for_each(|_| r.record(40_000_000 + xorshift(&mut s) % 5_000_000));
        assert!(r.get().unwrap().chunks.iter().flatten().all(|c| c.bytes() == SUB));
    }

    #[test]
    fn merged_histograms_equal_the_histogram_of_all_the_samples() {
        // Three "flows": different ranges, one with 300 samples in one bucket (its
        // counters two bytes wide), one empty; merged in turn against one histogram fed
        // every sample.
        let (mut a, mut b, empty) = (DelayHistogram::default(), DelayHistogram::default(), DelayHistogram::default());
        let mut all = DelayHistogram::default();
        let mut s = 11u64;
        for _ in 0..5_000 {
            let v = 20_000_000 + xorshift(&mut s) % 30_000_000;
            a.record(v);
            all.record(v);
        }
        for i in 0..3_000u64 {
            let v = if i < 300 { 90_000_000 } else { 1_000 + xorshift(&mut s) % 2_000_000_000 };
            b.record(v);
            all.record(v);
        }
        let mut pooled = DelayHistogram::default();
        for h in [&a, &empty, &b] {
            pooled.merge(h);
        }
        assert_eq!((pooled.count(), pooled.sum(), pooled.min(), pooled.max()), (all.count(), all.sum(), all.min(), all.max()));
        for (num, den) in QUANTILES {
            assert_eq!(pooled.quantile(num, den), all.quantile(num, den), "{num}/{den}");
        }
        // A merge that pushes a byte-wide bucket past 255 widens it, as recording does.
        let mut x = DelayHistogram::default();
        (0..200).for_each(|_| x.record(40_000_000));
        let y = x.clone();
        x.merge(&y);
        assert_eq!(x.count(), 400);
        assert_eq!(x.chunks[bucket_of(40_000_000).0].as_ref().map(Chunk::bytes), Some(2 * SUB));
        assert_eq!(x.quantile(1, 1), Some(40_000_000.0));
    }

    /// The middle of `v`'s bucket, as `quantile` reports it before clamping.
    fn bucket_mid(v: u64) -> f64 {
        let (c, i) = bucket_of(v);
        let (lo, w) = bucket_range(c, i);
        lo as f64 + (w - 1) as f64 / 2.0
    }
}
