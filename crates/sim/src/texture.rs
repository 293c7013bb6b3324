//! The simulator's model of textures and surfaces (issue #26 item 1).
//!
//! A listing names a texture or surface only by a handle: a bindless object read from the
//! parameter area (Pascal `TEXS … 0x5a` reads the handle at `c[0x0][0x5a × 4]`; Volta–Ada
//! `TEX.SCR … 0x62` at `c[0x0][0x62 × 4]`; Hopper `TEX … UR12` from a uniform register that
//! `ULDC` filled from the parameter area). What the host bound to it — where the texels are,
//! their format, the filtering and addressing modes (`cudaCreateTextureObject`'s resource
//! and texture descriptors) — is not in the listing, so the simulator fixes a model and says
//! so. The model is the plainest texture CUDA can create, and the one the corpus's kernels
//! read (`tex2D<unsigned char>` in the CUDA samples' SobelTex, which masks each fetch with
//! `0xff`):
//!
//! - **Storage**: the handle's value is the byte address, in the simulated global memory, of
//!   a pitch-linear 2D array of `width × height` texels of `texel_words` 32-bit words each
//!   (1, 2 or 4: the one-, two- and four-component formats CUDA has, `int`, `int2`,
//!   `float4`…), row after row (pitch `4 · texel_words · width` bytes). A
//!   [`TextureBinding`] gives each handle's size; a fetch through a handle without a
//!   binding stops the run with a located error that says how to give one.
//! - **Fetch** (`TEXS`, `TEX`, 2D): unnormalised float coordinates, point (nearest)
//!   filtering — texel `(⌊x⌋, ⌊y⌋)`, the texel whose square `[i, i+1)` holds the coordinate
//!   (CUDA C++ Programming Guide, "Texture Fetching", nearest-point sampling) — and clamp
//!   addressing: an index below 0 reads column or row 0, one past the end the last
//!   (`cudaAddressModeClamp`). A NaN coordinate reads index 0. The texel's words are
//!   returned as they are stored, as its channels R, G, B, A in order (the element type is
//!   the binding's, which the model leaves to the kernel: an `unsigned char` texture's
//!   kernel masks the word itself); channels past the texel's words read 0. The
//!   instruction's channel mask (`R`, `RG`, `RGBA`, `0x3`, …; none printed: all four)
//!   says which channels go to its destinations, in order: the first register pair, then
//!   the second. An explicit level of detail (`.LL`) is ignored: the model has one level.
//! - **Integer fetch** (`TLDS` on Pascal, `TLD` on Volta–Hopper, 1D with level 0:
//!   `tex1Dfetch`): the coordinate is the texel's index `x` in row 0, clamped to `0 ..
//!   width`. CUDA's `tex1Dfetch` reads linear memory and "supports only the border and
//!   clamp addressing modes" (CUDA C++ Programming Guide, texture functions); the model
//!   fixes clamp, as for 2D fetches. 3D/cube/array shapes, 2D integer fetches, gathers
//!   (`TLD4`), queries (`TXQ`) and derivatives (`TXD`) are refused by name.
//! - **Texture references** (`texture<int2, 1> ref;` bound by the host with
//!   `cudaBindTexture`): the kernel names one by a word of constant bank 0 placed after its
//!   parameters, which the driver fills at launch (a relocation, `R_CUDA_TEX_HEADER_INDEX`
//!   in the cubin; `TLDS.LZ.P RZ, R8, R2, 0x64, 1D, RG` reads `c[0x0][0x190]` of a kernel
//!   whose parameters end at `0x190`). The model reads that word like a texture object's
//!   handle: the launch gives it (an automatic launch infers it as a 32-bit texture
//!   parameter) and a binding says what it is bound to.
//! - **Surface** (`SULD.D.BA.2D`, `SUST.D.BA.2D`: raw data, byte-addressed x): the same
//!   array; the access at byte `x` of row `y` moves `bytes` bytes at `handle + y · pitch + x`.
//!   Out of bounds, `.TRAP` stops the kernel (an error naming the coordinates), `.CLAMP`
//!   moves the nearest in-bounds element and `.IGN` reads zero and drops the store (PTX ISA,
//!   `suld`/`sust` `.clamp_mode` `.trap`, `.clamp`, `.zero`; nvcc prints `.zero` as `.IGN`). A misaligned x stops the run.
//! - **Timing**: every texture or surface instruction takes the `texture` class latency, the
//!   class the analyses charge it (`cfg::latency::TimingClass::Texture`); the texture cache
//!   is not modelled, so the simulator's time for a fetch never differs from the analysis's.
//!
//! PTX runs the same model (`tex.1d`/`.2d.v4` through a texture object in a register; channels
//! G, B, A of the one-channel texel read 0; integer coordinates `.s32` are the index itself;
//! `.texref` variables, which the host binds by name, are refused).
//!
//! Texels live in the ordinary global memory, so a request's `memory` gives their values
//! and the run's final memory shows them; an automatic launch gives each texture parameter
//! a seeded buffer of `width × height` words and a binding (`warpbound`'s `textures`).

/// Bytes of one texel word (a texel has `texel_words` of them).
pub const TEXEL_BYTES: u64 = 4;

/// What a texture or surface handle is bound to: the model's stand-in for the host's texture
/// object (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureBinding {
    /// The handle's value, which is also the texels' byte address in global memory. A
    /// handle read from a uniform register has 32 bits: bindings are matched on the low 32
    /// bits ([`TextureBinding::matches`]).
    pub handle: u64,
    /// Texels per row (at least 1).
    pub width: u32,
    /// Rows (at least 1).
    pub height: u32,
    /// 32-bit words per texel: 1, 2 or 4.
    pub texel_words: u32,
}

/// What a surface access does outside its surface (`.TRAP`, `.CLAMP`, `.IGN`: PTX
/// `.trap`, `.clamp`, `.zero`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutOfBounds {
    Trap,
    Clamp,
    Zero,
}

impl TextureBinding {
    /// Whether `handle` (as the instruction read it) names this binding.
    pub fn matches(&self, handle: u64) -> bool {
        self.handle as u32 == handle as u32
    }

    /// Bytes of one texel.
    pub fn texel_bytes(&self) -> u64 {
        u64::from(self.texel_words.clamp(1, 4)) * TEXEL_BYTES
    }

    /// Bytes from one row to the next.
    pub fn pitch(&self) -> u64 {
        u64::from(self.width.max(1)) * self.texel_bytes()
    }

    /// Bytes of the whole array.
    pub fn bytes(&self) -> u64 {
        self.pitch() * u64::from(self.height.max(1))
    }

    /// The address of the texel a point-filtered, clamped fetch at `(x, y)` reads.
    pub fn texel_address(&self, x: f32, y: f32) -> u64 {
        let ix = clamped_index(x, self.width);
        let iy = clamped_index(y, self.height);
        self.handle
            .wrapping_add(iy * self.pitch())
            .wrapping_add(ix * self.texel_bytes())
    }

    /// The address of the texel an integer fetch of index `x` reads (row 0, clamped).
    pub fn element_address(&self, x: i32) -> u64 {
        let last = i64::from(self.width.max(1)) - 1;
        let ix = i64::from(x).clamp(0, last) as u64;
        self.handle.wrapping_add(ix * self.texel_bytes())
    }

    /// The address a surface access of `bytes` bytes at byte `x` of row `y` moves, or `None`
    /// when `.ZERO` makes it read zero / store nothing.
    pub fn surface_address(
        &self,
        x: i32,
        y: i32,
        bytes: u64,
        oob: OutOfBounds,
    ) -> Result<Option<u64>, String> {
        let bytes = bytes.max(1);
        if x.rem_euclid(bytes as i32) != 0 {
            return Err(format!(
                "surface access at byte {x} of row {y} is not aligned to its {bytes} bytes"
            ));
        }
        let last_x = self.pitch().saturating_sub(bytes) as i64;
        let last_y = i64::from(self.height.max(1)) - 1;
        let (xi, yi) = (i64::from(x), i64::from(y));
        let inside = (0..=last_x).contains(&xi) && (0..=last_y).contains(&yi);
        let (xi, yi) = match (inside, oob) {
            (true, _) => (xi, yi),
            (false, OutOfBounds::Zero) => return Ok(None),
            (false, OutOfBounds::Clamp) => (
                xi.clamp(0, last_x) / bytes as i64 * bytes as i64,
                yi.clamp(0, last_y),
            ),
            (false, OutOfBounds::Trap) => {
                return Err(format!(
                    "surface access at byte {x} of row {y} is outside the {} × {} surface of handle {:#x} (`.TRAP` stops the kernel)",
                    self.width, self.height, self.handle
                ))
            }
        };
        Ok(Some(
            self.handle
                .wrapping_add(yi as u64 * self.pitch())
                .wrapping_add(xi as u64),
        ))
    }
}

/// The binding as the `textures` text writes it: `HANDLE WIDTHxHEIGHT`, then the words per
/// texel when there are more than one (`0x300000 4096x1 2`).
impl std::fmt::Display for TextureBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x} {}x{}", self.handle, self.width, self.height)?;
        if self.texel_words != 1 {
            write!(f, " {}", self.texel_words)?;
        }
        Ok(())
    }
}

/// `⌊c⌋` clamped to `0..n` (NaN: 0).
fn clamped_index(c: f32, n: u32) -> u64 {
    let last = f64::from(n.max(1) - 1);
    let f = f64::from(c).floor();
    if f.is_nan() {
        0
    } else {
        f.clamp(0.0, last) as u64
    }
}

/// The binding of `handle` among `bindings`, or the error that says how to give one.
pub fn binding(bindings: &[TextureBinding], handle: u64) -> Result<&TextureBinding, String> {
    bindings.iter().find(|b| b.matches(handle)).ok_or_else(|| {
        format!(
            "texture/surface handle {handle:#x} has no binding: the simulator reads a handle as the address of a pitch-linear array of 32-bit texels and needs its size (`textures = {handle:#x} WIDTHxHEIGHT`; an automatic launch gives each texture parameter one)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: TextureBinding = TextureBinding {
        handle: 0x30_0000,
        width: 8,
        height: 4,
        texel_words: 1,
    };

    /// An `int2` texture of 8 × 4 texels: texel (i, j) at 0x300000 + 64·j + 8·i; an integer
    /// fetch reads row 0, its index clamped to 0..8.
    #[test]
    fn wide_texels_and_integer_fetches() {
        let b = TextureBinding {
            texel_words: 2,
            ..B
        };
        assert_eq!(b.pitch(), 64);
        assert_eq!(b.texel_address(2.5, 1.0), 0x30_0000 + 64 + 16);
        assert_eq!(b.element_address(3), 0x30_0000 + 24);
        assert_eq!(b.element_address(-5), 0x30_0000);
        assert_eq!(b.element_address(8), 0x30_0000 + 56);
        assert_eq!(b.element_address(i32::MAX), 0x30_0000 + 56);
        assert_eq!(B.element_address(7), 0x30_0000 + 28);
    }

    /// Hand values: texel (i, j) is at 0x300000 + 32·j + 4·i.
    #[test]
    fn nearest_point_with_clamp() {
        assert_eq!(B.texel_address(0.0, 0.0), 0x30_0000);
        assert_eq!(B.texel_address(2.5, 1.0), 0x30_0000 + 32 + 8);
        assert_eq!(B.texel_address(2.999, 1.999), 0x30_0000 + 32 + 8);
        assert_eq!(B.texel_address(-0.5, -3.0), 0x30_0000);
        assert_eq!(B.texel_address(8.0, 4.0), 0x30_0000 + 3 * 32 + 7 * 4);
        assert_eq!(B.texel_address(1e30, f32::NAN), 0x30_0000 + 7 * 4);
        assert_eq!(B.texel_address(f32::NEG_INFINITY, 2.0), 0x30_0000 + 64);
    }

    #[test]
    fn surface_bounds_modes() {
        use OutOfBounds::*;
        assert_eq!(B.surface_address(4, 1, 4, Trap), Ok(Some(0x30_0000 + 36)));
        assert_eq!(B.surface_address(28, 3, 4, Trap), Ok(Some(0x30_0000 + 124)));
        assert!(B.surface_address(32, 0, 4, Trap).is_err());
        assert!(B.surface_address(0, 4, 4, Trap).is_err());
        assert!(B.surface_address(-4, 0, 4, Trap).is_err());
        assert_eq!(B.surface_address(32, 0, 4, Zero), Ok(None));
        assert_eq!(
            B.surface_address(40, -2, 4, Clamp),
            Ok(Some(0x30_0000 + 28))
        );
        assert_eq!(
            B.surface_address(24, 9, 8, Clamp),
            Ok(Some(0x30_0000 + 96 + 24))
        );
        assert!(B.surface_address(2, 0, 4, Trap).is_err());
    }

    #[test]
    fn bindings_match_the_low_word() {
        let bs = [B];
        assert!(binding(&bs, 0x30_0000).is_ok());
        assert!(binding(&bs, 0x1_0030_0000).is_ok());
        let e = binding(&bs, 0x40_0000).err().unwrap_or_default();
        assert!(e.contains("textures = 0x400000"), "{e}");
    }
}
