// Drift and its repair (Sim-D, Spliet & Mullins §4.2, Fig. 4): a work-group loads a tile from
// DRAM, computes, reads its scratchpad twice with compute in between, and stores. Each slot
// has a scratchpad of its own, so without constraints the two slots' scratchpad phases
// overlap and the slots drift apart; the pairwise-work-group constraint and the two policies
// bring them back to the one serialisation the WCET is computed for.
.data
	0 0x0     1024 64
	1 0x80000 1024 64
.sp_data
	0 0x0 32 32
.text
	ldglin v0, 0
	mov v1, vc.lid_x
	mul v2, v0, v0
	add v2, v2, v0
	movvsp vc.mem_idx, v1
	ldspbidx 0
	mov v1, vc.mem_data
	add v0, v1, v0
	mul v0, v0, v2
	add v0, v0, v2
	movvsp vc.mem_idx, v1
	ldspbidx 0
	mov v1, vc.mem_data
	add v0, v1, v0
	stglin v0, 1
	exit
