// What each kernel family can take: alignment, shared memory, the TMA unit. Plain C++ (the
// choice runs it in every build); the CUDA side (kernels/cuda/*.cuh) runs the same rules.
#include "kernels/kernel_list.h"

#include <algorithm>
#include <cstdio>

namespace xpose::kernels::detail {

bool output_rows_aligned(std::uintptr_t out, const TransposeShape& s, std::int64_t elem,
                         std::int64_t align) {
  return out % align == 0 && (s.out_pitch * elem) % align == 0 &&
         (s.batch <= 1 || (s.out_batch_stride * elem) % align == 0);
}

bool input_rows_aligned(std::uintptr_t in, const TransposeShape& s, std::int64_t elem,
                        std::int64_t align) {
  return in % align == 0 && (s.in_pitch * elem) % align == 0 &&
         (s.batch <= 1 || (s.in_batch_stride * elem) % align == 0);
}

bool pitch_on_one_stack(std::int64_t pitch, const DeviceProfile& device) {
  return pitch > 0 && pitch % (5 * 65536) == 0 && device.dram_stacks == 5;
}

namespace {

bool element_aligned(std::uintptr_t in, std::uintptr_t out, std::int64_t elem) {
  return in % elem == 0 && out % elem == 0;
}

// A block's shared memory: up to 48 KiB every device gives; above that, what it lets a block
// opt in to (sm_70 96 KiB, sm_75 64, sm_80 163, sm_86/89 99, sm_90 227; sm_37 none).
bool smem_fits(const KernelSpec& k, const DeviceProfile& device) {
  return k.smem <= 48 * 1024 || k.smem <= device.smem_per_block;
}

// W-byte words on both sides: pointers on W bytes, pitches and batch strides whole words.
bool words_aligned(const KernelSpec& k, std::uintptr_t in, std::uintptr_t out,
                   const TransposeShape& s) {
  const std::int64_t v = k.word / k.elem;  // elements a word
  if (in % k.word != 0 || out % k.word != 0) return false;
  if (s.in_pitch % v != 0 || s.out_pitch % v != 0) return false;
  return s.batch <= 1 || (s.in_batch_stride % v == 0 && s.out_batch_stride % v == 0);
}

// What the TMA unit addresses (tma.cuh's tma_layout_fits, loads only): bases, pitches and batch
// strides on 16 bytes, extents under 2^30, fewer than 2^32 tiles.
bool tma_layout_fits(const KernelSpec& k, std::uintptr_t in, std::uintptr_t out,
                     const TransposeShape& s) {
  const auto a16 = [](std::int64_t v) { return v % 16 == 0 && v > 0 && v < (std::int64_t{1} << 40); };
  const std::int64_t e = k.elem;
  if (in % 16 != 0 || out % 16 != 0) return false;
  if (!a16(s.in_pitch * e) || !a16(s.out_pitch * e)) return false;
  if (s.batch > 1 && (!a16(s.in_batch_stride * e) || !a16(s.out_batch_stride * e))) return false;
  constexpr std::int64_t kMax = std::int64_t{1} << 30;
  if (s.rows >= kMax || s.cols >= kMax || s.batch >= kMax) return false;
  const std::int64_t tiles =
      ((s.rows + k.tile_rows - 1) / k.tile_rows) * ((s.cols + k.tile_cols - 1) / k.tile_cols);
  return tiles < (std::int64_t{1} << 32);
}

// The thin kernel's wide matrix (the input where rows <= cols) has every row on 4 bytes.
bool thin_wide_on4(int elem, std::uintptr_t in, std::uintptr_t out, const TransposeShape& s) {
  return s.rows <= s.cols ? input_rows_aligned(in, s, elem, 4) : output_rows_aligned(out, s, elem, 4);
}

// The tall matrix is one dense run on 4 bytes (every matrix of the batch).
bool thin_tall_words(int elem, std::uintptr_t in, std::uintptr_t out, const TransposeShape& s) {
  const bool short_rows = s.rows <= s.cols;
  const std::uintptr_t tall = short_rows ? out : in;
  const std::int64_t pitch = (short_rows ? s.out_pitch : s.in_pitch) * elem;
  const std::int64_t batch = (short_rows ? s.out_batch_stride : s.in_batch_stride) * elem;
  return pitch == (short_rows ? s.rows : s.cols) * elem && tall % 4 == 0 &&
         (s.batch == 1 || batch % 4 == 0);
}

// thin.cuh's thin_blocks: where the tall side goes in P x P blocks.
bool thin_blocks(int elem, bool short_rows, int wide) {
  return (elem == 1 && wide == 1) || (elem == 2 && short_rows && wide != 0);
}

}  // namespace

ThinForm thin_form(int elem, int shifted, std::uintptr_t in, std::uintptr_t out,
                   const TransposeShape& s) {
  ThinForm f;
  f.short_rows = s.rows <= s.cols;
  const bool shift = shifted == 2 || (shifted == 1 && f.short_rows);
  f.wide = thin_wide_on4(elem, in, out, s) ? 1 : shift ? 2 : 0;
  f.tall_words = thin_tall_words(elem, in, out, s);
  const std::int64_t m = f.short_rows ? s.rows : s.cols;
  f.blocks = elem < 4 && f.tall_words && m % (4 / elem) == 0 && thin_blocks(elem, f.short_rows, f.wide);
  return f;
}

const char* thin_instantiation(int elem, const ThinForm& f, char* buf, std::size_t size) {
  const char* sr = f.short_rows ? "true" : "false";
  if (elem >= 4) {
    std::snprintf(buf, size, "thin_kernel<%d,%s,0,false,false>", elem, sr);
  } else if (!f.tall_words) {
    std::snprintf(buf, size, "thin_kernel<%d,%s,%d,false,false>", elem, sr, f.wide);
  } else if (f.blocks) {
    std::snprintf(buf, size, "thin_kernel<%d,%s,%d,true,true>", elem, sr, f.wide);
  } else if (!f.short_rows && f.wide == 0 && elem == 1) {
    // tall input in stepped words, wide output element by element: 5 blocks an SM
    std::snprintf(buf, size, "thin_kernel_capped<%d,%s,%d,true>", elem, sr, f.wide);
  } else {
    std::snprintf(buf, size, "thin_kernel<%d,%s,%d,true,false>", elem, sr, f.wide);
  }
  return buf;
}

bool takes_out_of_place(const KernelSpec& k, std::uintptr_t in, std::uintptr_t out,
                        const TransposeShape& s, const DeviceProfile& device) {
  const int e = k.elem;
  if (!element_aligned(in, out, e) || !smem_fits(k, device)) return false;
  switch (k.family) {
    case Family::kRecords:  // both matrices in 4-byte words, a short side of at most 16
      return e <= 2 && std::min(s.rows, s.cols) <= 16 && thin_tall_words(e, in, out, s) &&
             thin_wide_on4(e, in, out, s);
    case Family::kThin:  // the short side in one block's shared memory
      return std::min(s.rows, s.cols) <= 256;
    case Family::kTiled:
      return words_aligned(k, in, out, s);
    case Family::kTmaLoad:
      return device.tma && tma_layout_fits(k, in, out, s);
    case Family::kSkew:
    case Family::kLines:
    case Family::kNarrow:
    case Family::kNarrowSkew:
    case Family::kRotated:  // any rows aligned to the element
      return true;
    default:
      return false;
  }
}

bool takes_in_place(const KernelSpec& k, std::uintptr_t buf, std::int64_t n,
                    const DeviceProfile& device) {
  if (buf % k.elem != 0 || !smem_fits(k, device)) return false;
  switch (k.family) {
    case Family::kPairs:
    case Family::kStrip:  // whole words: the buffer on a word, n a multiple of its elements
      return buf % k.word == 0 && n % (k.word / k.elem) == 0;
    case Family::kRotatedPairs:
    case Family::kNarrowPairs:  // any n
      return true;
    default:
      return false;
  }
}

std::int64_t pair_blocks(const KernelSpec& k, std::int64_t n) {
  const auto t = static_cast<std::uint64_t>((n + k.tile_rows - 1) / k.tile_rows);
  const std::uint64_t pairs = t * (t + 1) / 2;
  return static_cast<std::int64_t>((pairs + k.pairs - 1) / k.pairs);
}

}  // namespace xpose::kernels::detail
