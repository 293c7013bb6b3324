// Written for Warpbound: square a tile eight times, then store it.
.data
	0 0x0 1024 32
	1 0x20000 1024 32

.text
	ldglin v1, 0
	smov s1, 0
loop:
	mul v1, v1, v1
	siadd s1, s1, 1
	sisub s2, s1, 8
	#bound branchcycle 7 1 0
	sicj.l loop, s2
	stglin v1, 1
	exit
