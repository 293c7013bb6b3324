//! Line charts (`report.plots`).

use crate::report::{PlotView, Series};

/// The convergence of the makespan estimate T(W, x) (Berezovskyi et al., Figs. 6 and 7) with
/// the pessimistic bound of Eq. 5–7 as a dashed line; `None` for an empty curve.
pub fn estimate_curve(
    warps: u32,
    string: &str,
    curve: &[(u32, u64)],
    pessimistic: u64,
) -> Option<PlotView> {
    let (first, last) = (curve.first()?, curve.last()?);
    Some(PlotView {
        title: format!("T(W, x) for W = {warps}, {string}"),
        x_label: "x (largest warp group solved exactly)".into(),
        y_label: "makespan (cycles)".into(),
        series: vec![
            Series {
                name: "T(W, x), Eq. 42–43".into(),
                style: "line".into(),
                points: curve
                    .iter()
                    .map(|(x, v)| [f64::from(*x), *v as f64])
                    .collect(),
            },
            Series {
                name: "pessimistic bound, Eq. 5–7".into(),
                style: "dashed".into(),
                points: vec![
                    [f64::from(first.0), pessimistic as f64],
                    [f64::from(last.0), pessimistic as f64],
                ],
            },
        ],
    })
}
