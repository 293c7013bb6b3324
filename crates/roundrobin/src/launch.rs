//! Kernel launch values: grid and block dimensions and parameter values — the "input
//! values, including parameter values and the kernel hierarchy configuration values" the
//! analyzer needs (Huangfu §4.4.4, Alg. 1 line 1 `CollectKernelInputs`).

/// `dim3(x, y, z)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Dim3 { x, y, z }
    }

    /// x·y·z.
    pub fn count(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// The coordinates of linear index `i` (x fastest), as CUDA numbers threads and blocks.
    pub fn coords(&self, i: u64) -> [u32; 3] {
        let x = self.x.max(1) as u64;
        let y = self.y.max(1) as u64;
        [(i % x) as u32, ((i / x) % y) as u32, (i / (x * y)) as u32]
    }
}

/// One kernel argument. Integers and pointers are `Int` (two's complement bits), floats
/// `Float` (converted to the parameter's PTX type), and struct-by-value parameters
/// (`.param .align 8 .b8 p[16]`) `Bytes` in little-endian layout.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    Int(i64),
    Float(f64),
    Bytes(Vec<u8>),
}

/// `<<<grid, block>>>(params...)`, parameters in declaration order.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    pub grid: Dim3,
    pub block: Dim3,
    pub params: Vec<ParamValue>,
}

impl Launch {
    pub fn threads_per_block(&self) -> u64 {
        self.block.count()
    }

    pub fn blocks(&self) -> u64 {
        self.grid.count()
    }

    /// Warps per block for a given warp size (the last one may be partial).
    pub fn warps_per_block(&self, warp_size: u32) -> u64 {
        self.threads_per_block().div_ceil(warp_size.max(1) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_are_x_fastest() {
        let b = Dim3::new(16, 4, 1);
        assert_eq!(b.coords(0), [0, 0, 0]);
        assert_eq!(b.coords(17), [1, 1, 0]);
        assert_eq!(b.coords(63), [15, 3, 0]);
        let l = Launch {
            grid: Dim3::new(1, 2, 1),
            block: b,
            params: vec![],
        };
        // §4.4.4: "There are 2 kernel blocks, and each block has 2 warps."
        assert_eq!((l.blocks(), l.warps_per_block(32)), (2, 2));
    }
}
