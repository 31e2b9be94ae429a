//! The 32-byte hash address ADRS (FIPS 205 §4.2-4.3): every word
//! big-endian; \[0:4\] layer, \[4:16\] tree (only \[8:16\] used), \[16:20\] type,
//! \[20:32\] three type-specific words.

/// Address types (FIPS 205 §4.2).
pub mod kind {
    /// WOTS+ hash chains.
    pub const WOTS_HASH: u32 = 0;
    /// WOTS+ public-key compression.
    pub const WOTS_PK: u32 = 1;
    /// XMSS tree nodes.
    pub const TREE: u32 = 2;
    /// FORS tree nodes.
    pub const FORS_TREE: u32 = 3;
    /// FORS roots compression.
    pub const FORS_ROOTS: u32 = 4;
    /// WOTS+ secret-key generation.
    pub const WOTS_PRF: u32 = 5;
    /// FORS secret-key generation.
    pub const FORS_PRF: u32 = 6;
}

/// A hash address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adrs(pub [u8; 32]);

impl Adrs {
    fn set_word(&mut self, at: usize, v: u32) {
        self.0[at..at + 4].copy_from_slice(&v.to_be_bytes());
    }

    fn word(&self, at: usize) -> u32 {
        u32::from_be_bytes([self.0[at], self.0[at + 1], self.0[at + 2], self.0[at + 3]])
    }

    /// Layer address.
    pub fn set_layer(&mut self, l: u32) {
        self.set_word(0, l);
    }

    /// Tree address (the low 8 of its 12 bytes; the top 4 stay zero).
    pub fn set_tree(&mut self, t: u64) {
        self.0[4..8].fill(0);
        self.0[8..16].copy_from_slice(&t.to_be_bytes());
    }

    /// setTypeAndClear: the type, and the three words after it zeroed.
    pub fn set_type_and_clear(&mut self, ty: u32) {
        self.set_word(16, ty);
        self.0[20..32].fill(0);
    }

    /// Key pair address (word 1).
    pub fn set_keypair(&mut self, k: u32) {
        self.set_word(20, k);
    }

    /// Key pair address.
    #[must_use]
    pub fn keypair(&self) -> u32 {
        self.word(20)
    }

    /// Chain address (word 2).
    pub fn set_chain(&mut self, c: u32) {
        self.set_word(24, c);
    }

    /// Hash address (word 3).
    pub fn set_hash(&mut self, h: u32) {
        self.set_word(28, h);
    }

    /// Tree height (word 2).
    pub fn set_tree_height(&mut self, z: u32) {
        self.set_word(24, z);
    }

    /// Tree index (word 3).
    pub fn set_tree_index(&mut self, i: u32) {
        self.set_word(28, i);
    }

    /// Sets the tree index and returns the address (for a hash call).
    pub fn with_tree_index(&mut self, i: u32) -> &Self {
        self.set_tree_index(i);
        self
    }

    /// The 22-byte compressed form of the SHA2 sets (§11.2): layer's low
    /// byte, tree's low 8 bytes, type's low byte, the three words.
    #[must_use]
    pub fn compressed(&self) -> [u8; 22] {
        let mut c = [0u8; 22];
        c[0] = self.0[3];
        c[1..9].copy_from_slice(&self.0[8..16]);
        c[9] = self.0[19];
        c[10..22].copy_from_slice(&self.0[20..32]);
        c
    }
}
