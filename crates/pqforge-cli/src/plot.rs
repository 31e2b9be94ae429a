//! SVG chart of benchmark medians (log scale, one group per algorithm).

use std::path::Path;

use plotters::prelude::*;

use crate::bench::Row;

const COLORS: [RGBColor; 3] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
];

/// Draws grouped bars of median microseconds per algorithm and operation.
///
/// # Errors
/// If the file cannot be written.
pub fn medians(rows: &[Row], path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let mut algs: Vec<&str> = Vec::new();
    for r in rows {
        if !algs.contains(&r.alg) {
            algs.push(r.alg);
        }
    }
    let us = |r: &Row| (r.median_ns as f64 / 1000.0).max(0.01);
    let max = rows.iter().map(us).fold(1.0f64, f64::max) * 2.0;
    let min = rows.iter().map(us).fold(f64::MAX, f64::min).min(1.0) / 2.0;
    let width = (160 * algs.len()).max(640) as u32;
    let root = SVGBackend::new(path, (width, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("pqforge: median time per operation", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(60)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..algs.len() as f64 - 0.5, (min..max).log_scale())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(algs.len())
        .x_label_formatter(&|x| {
            // Groups are centred on integers: label those, nothing else.
            let r = x.round();
            if (x - r).abs() < 0.01 && r >= 0.0 {
                algs.get(r as usize)
                    .map_or(String::new(), |s| (*s).to_string())
            } else {
                String::new()
            }
        })
        .y_desc("µs (log scale)")
        .draw()?;
    let ops = ["keygen", "encaps/sign", "decaps/verify"];
    for (k, label) in ops.iter().enumerate() {
        let color = COLORS[k];
        let bars = rows.iter().filter_map(|r| {
            let slot = match r.op {
                "keygen" => 0,
                "encaps" | "sign" => 1,
                _ => 2,
            };
            (slot == k).then(|| {
                let g = algs.iter().position(|a| *a == r.alg).unwrap_or(0) as f64;
                let x0 = g - 0.4 + 0.27 * k as f64;
                Rectangle::new([(x0, min), (x0 + 0.25, us(r))], color.filled())
            })
        });
        chart
            .draw_series(bars)?
            .label(*label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()?;
    root.present()?;
    Ok(())
}
