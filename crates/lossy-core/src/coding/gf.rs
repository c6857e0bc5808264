//! The Galois field GF(2^m) for m = 3..=10, with log and antilog tables built from one
//! primitive polynomial per m (Lin & Costello, *Error Control Coding*, 2nd ed., ch. 2).
//!
//! An element is a `u16` whose bit i is the coefficient of α^i in the polynomial basis.
//! The polynomials are the Conway polynomials, the ones the Python package `galois`
//! uses by default (`galois.GF(2**m).irreducible_poly`), so that BCH generator
//! polynomials built on them are the oracle's. Some differ from the other common table
//! (m = 6: x^6 + x^4 + x^3 + x + 1, not x^6 + x + 1; m = 10 likewise); a different
//! choice would give an equivalent code with other generator polynomials.

/// Primitive polynomial of GF(2^m) for m = 3..=10, bit i the coefficient of x^i.
const PRIMITIVE_POLYS: [(u32, u32); 8] = [
    (3, 0b1011),          // x^3 + x + 1
    (4, 0b1_0011),        // x^4 + x + 1
    (5, 0b10_0101),       // x^5 + x^2 + 1
    (6, 0b101_1011),      // x^6 + x^4 + x^3 + x + 1
    (7, 0b1000_0011),     // x^7 + x + 1
    (8, 0b1_0001_1101),   // x^8 + x^4 + x^3 + x^2 + 1
    (9, 0b10_0001_0001),  // x^9 + x^4 + 1
    (10, 0b100_0110_1111), // x^10 + x^6 + x^5 + x^3 + x^2 + x + 1
];

/// The degrees m this module has a field for.
pub const DEGREES: std::ops::RangeInclusive<u32> = 3..=10;

/// GF(2^m): its size and the tables that turn multiplication into adding exponents.
#[derive(Clone, Debug)]
pub struct Gf {
    m: u32,
    /// 2^m − 1, the order of α (the multiplicative group's size).
    order: usize,
    /// exp[i] = α^i for i in 0..2·order, doubled so a sum of two logs needs no reduction.
    exp: Vec<u16>,
    /// log[x] = i with α^i = x, for x ≠ 0 (log[0] is unused).
    log: Vec<u16>,
}

impl Gf {
    /// The field of 2^m elements; `None` for an m outside `DEGREES`.
    pub fn new(m: u32) -> Option<Gf> {
        let poly = PRIMITIVE_POLYS.iter().find(|(d, _)| *d == m)?.1;
        let order = (1usize << m) - 1;
        let mut exp = vec![0u16; 2 * order];
        let mut log = vec![0u16; order + 1];
        let mut x: u32 = 1;
        for i in 0..order {
            exp[i] = x as u16;
            exp[i + order] = x as u16;
            log[x as usize] = i as u16;
            // Multiply by α: shift, and reduce by the primitive polynomial on overflow.
            x <<= 1;
            if x >> m != 0 {
                x ^= poly;
            }
        }
        debug_assert_eq!(x, 1, "the polynomial for m = {m} is not primitive");
        Some(Gf { m, order, exp, log })
    }

    pub fn m(&self) -> u32 {
        self.m
    }

    /// 2^m − 1: the order of α, and the length of a primitive BCH code over this field.
    pub fn order(&self) -> usize {
        self.order
    }

    /// α^i for any i ≥ 0 (the table is read directly below 2·order: the decoder's
    /// inner loops keep their exponents there).
    pub fn alpha_pow(&self, i: usize) -> u16 {
        match self.exp.get(i) {
            Some(&x) => x,
            None => self.exp[i % self.order],
        }
    }

    /// The exponent i in 0..order with α^i = x; x must not be 0.
    pub fn log(&self, x: u16) -> usize {
        debug_assert!(x != 0, "log of 0");
        self.log[x as usize] as usize
    }

    pub fn mul(&self, a: u16, b: u16) -> u16 {
        if a == 0 || b == 0 {
            return 0;
        }
        self.exp[self.log(a) + self.log(b)]
    }

    /// a / b; b must not be 0.
    pub fn div(&self, a: u16, b: u16) -> u16 {
        debug_assert!(b != 0, "division by 0");
        if a == 0 {
            return 0;
        }
        self.exp[self.log(a) + self.order - self.log(b)]
    }

    /// a^2 (squaring is linear over GF(2), and the syndromes of a binary code use it).
    pub fn square(&self, a: u16) -> u16 {
        self.mul(a, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_polynomial_is_primitive_alpha_has_order_two_to_the_m_minus_one() {
        for m in DEGREES {
            let f = Gf::new(m).unwrap();
            let mut seen = vec![false; f.order() + 1];
            for i in 0..f.order() {
                let x = f.alpha_pow(i) as usize;
                assert!(x != 0 && !seen[x], "m = {m}: α^{i} repeats an earlier power");
                seen[x] = true;
            }
            assert_eq!(f.alpha_pow(f.order()), 1);
        }
    }

    #[test]
    fn multiplication_agrees_with_carry_less_multiplication_modulo_the_polynomial() {
        let f = Gf::new(6).unwrap();
        let poly = 0b101_1011u32;
        for a in 0..64u32 {
            for b in 0..64u32 {
                let mut p = 0u32;
                for i in 0..6 {
                    if b >> i & 1 == 1 {
                        p ^= a << i;
                    }
                }
                for i in (6..12).rev() {
                    if p >> i & 1 == 1 {
                        p ^= poly << (i - 6);
                    }
                }
                assert_eq!(f.mul(a as u16, b as u16) as u32, p, "{a} · {b}");
                if b != 0 {
                    assert_eq!(f.mul(f.div(a as u16, b as u16), b as u16), a as u16);
                }
            }
        }
    }

    #[test]
    fn degrees_outside_three_to_ten_have_no_field() {
        assert!(Gf::new(2).is_none());
        assert!(Gf::new(11).is_none());
    }
}
