use loopbound::{Input, Interval};

fn env(
    arch: &str,
    grid: [u32; 3],
    block: [u32; 3],
    params: Vec<u32>,
) -> impl Fn(&Input) -> Option<Interval> {
    let layout = sim::ConstantLayout::for_arch(Some(arch));
    let launch = sim::Launch {
        grid,
        block,
        params,
        ..sim::Launch::default()
    };
    move |i: &Input| match i {
        Input::ConstWord { bank: 0, offset } => layout
            .read(&launch, *offset)
            .map(|w| Interval::point(i128::from(w))),
        Input::Tid(a) => Interval::new(0, i128::from(launch.block[*a as usize]) - 1),
        Input::Ctaid(a) => Interval::new(0, i128::from(launch.grid[*a as usize]) - 1),
        _ => None,
    }
}

#[test]
#[ignore]
fn explore() {
    let dir = std::env::var("LB_DIR").unwrap_or("../../tests/kernels/sass/sm_86".into());
    let filter = std::env::var("LB_FILTER").unwrap_or_default();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if !path.to_string_lossy().contains(&filter) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let parsed = isa::sass::parse(&text, None, &isa::Limits::default());
        for f in &parsed.functions {
            let one = isa::sass::parse(&text, Some(f), &isa::Limits::default());
            let Some(k) = one.kernel else { continue };
            let g = isa::blocks::build(&k, &isa::Limits::default());
            let p = loopbound::sass::lower(&k, &g);
            assert!(p.check().is_empty(), "{:?}", p.check());
            let a = loopbound::analyse(p);
            let arch = k.arch.clone().unwrap_or("sm_86".into());
            let ev = env(
                &arch,
                [1, 1, 1],
                [32, 1, 1],
                vec![0x100000, 0, 0x200000, 0, 64, 0, 64, 0],
            );
            for b in a.evaluate(&ev) {
                println!(
                    "{} {} {}: {:?} {} {:?}",
                    path.file_name().unwrap().to_string_lossy(),
                    f,
                    b.key,
                    b.bound,
                    b.reason,
                    b.formula
                );
            }
        }
    }
}
