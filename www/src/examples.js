// Small kernels written for Warpbound to show the situations the analyses care about.
// (Real compiler output lives in the shared corpus; these are for teaching.)

export const EXAMPLES = [
  {
    id: 'if-then-else',
    title: 'If-then-else on the thread index (SSY/SYNC)',
    dialect: 'sass',
    source: `// Threads with tid < 16 take one side, the rest the other;
// both sides SYNC back to the SSY target at 0x40.
/*0000*/ S2R R0, SR_TID.X ;
/*0008*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;
/*0010*/ SSY 0x40 ;
/*0018*/ @P0 BRA 0x30 ;
/*0020*/ IADD R1, R0, 0x1 ;
/*0028*/ SYNC ;
/*0030*/ IADD R1, R0, -0x1 ;
/*0038*/ SYNC ;
/*0040*/ ST [R2], R1 ;
/*0048*/ EXIT ;
`,
  },
  {
    id: 'loop-break',
    title: 'Loop with a data-dependent break (PBK/BRK)',
    dialect: 'sass',
    source: `// Each thread counts until its own limit; BRK leaves to the PBK target.
/*0000*/ S2R R1, SR_TID.X ;
/*0008*/ MOV R0, RZ ;
/*0010*/ PBK 0x40 ;
/*0018*/ IADD R0, R0, 0x1 ;
/*0020*/ ISETP.GT.AND P0, PT, R0, R1, PT ;
/*0028*/ @P0 BRK ;
/*0030*/ BRA 0x18 ;
/*0038*/ NOP ;
/*0040*/ ST [R2], R0 ;
/*0048*/ EXIT ;
`,
  },
  {
    id: 'subroutine',
    title: 'Subroutine called from two sites (CAL/RET, labels)',
    dialect: 'sass',
    source: `// Address comments are optional: these instructions are placed 8 bytes apart.
        S2R R1, SR_TID.X ;
        CAL square ;
        IADD R3, R2, 0x1 ;
        CAL square ;
        ST [R4], R2 ;
        EXIT ;
square:
        IMUL R2, R1, R1 ;
        RET ;
`,
  },
];
