// Written for Warpbound: d = a * b + c, element-wise, one 1024-item tile per work-group.
.data
	0 0x0 1024 32
	1 0x20000 1024 32
	2 0x40000 1024 32
	3 0x60000 1024 32

.text
	ldglin v1, 0
	ldglin v2, 1
	mul v1, v1, v2
	ldglin v3, 2
	add v1, v1, v3
	stglin v1, 3
	exit
