//! Board geometry, computed once per game: the row and column of every grid
//! cell, a table of the eight cells around each cell, the neighbours of
//! every space of every board (with the tags of graph edges), and the lines
//! `in_a_row` follows through each cell. At run time a step in a direction
//! is a table lookup and nothing is divided.
//!
//! A hexagonal grid is stored as a square one: row `r`, column `c`, row by
//! row. Each row lies half a cell to the right of the row above it, so of
//! the eight cells around, the one up and to the left and the one down and
//! to the right do not touch: a cell has six neighbours and three lines.

use super::compile::NONE_INT;
use super::state::NIL;
use crate::model::{Model, Shape, TrackId};

/// The eight directions of a step on a grid, as (drow, dcol), in the order of
/// [`Geometry::around`].
pub(crate) const DIRECTIONS: [(i64, i64); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// The lines through a grid cell, as pairs of opposite directions in
/// [`DIRECTIONS`]: the row, the column and the two diagonals. On a
/// hexagonal grid the diagonal up and to the left is none: its steps are
/// `NIL` in [`Geometry::touching`].
pub(crate) const LINES: [(usize, usize); 4] = [(4, 3), (6, 1), (7, 0), (5, 2)];

/// The directions of [`DIRECTIONS`] in which a cell of a hexagonal grid
/// does not touch the next cell.
const HEX_APART: [usize; 2] = [0, 7];

/// The neighbours of a cell in [`DIRECTIONS`], in reading order: up, left,
/// right, down on a square grid; on a hexagonal one the two cells above,
/// the two beside and the two below.
const SQUARE_NEIGHBOURS: &[usize] = &[1, 3, 4, 6];
const HEX_NEIGHBOURS: &[usize] = &[1, 2, 3, 4, 5, 6];

/// Where a space is on its board.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Place {
    /// The board.
    pub(crate) track: TrackId,
    /// Index of the space on its board, from 0.
    pub(crate) index: u16,
    /// Row and column from 1 (grids only; 0 elsewhere).
    pub(crate) row: i64,
    pub(crate) col: i64,
}

/// Lookup tables of every board of a game.
#[derive(Debug, Clone, Default)]
pub(crate) struct Geometry {
    /// The place of each runtime zone, if it is a space of a board.
    pub(crate) place: Vec<Option<Place>>,
    /// For a grid cell: the cell one step away in each of the eight
    /// [`DIRECTIONS`], `NIL` off the grid.
    pub(crate) around: Vec<[u16; 8]>,
    /// [`Geometry::around`] with only the cells that touch: the same on a
    /// square grid; on a hexagonal one, `NIL` up and to the left and down
    /// and to the right. What `in_a_row` follows.
    pub(crate) touching: Vec<[u16; 8]>,
    /// The neighbours of each space and the tags of the edge between them
    /// (0 except on graphs): 4 on a square grid, 6 on a hexagonal one,
    /// previous and next on a track.
    pub(crate) adjacent: Vec<Vec<(u16, u64)>>,
    /// The row and column (from 1) of each runtime zone that is a cell of
    /// a grid, `NONE_INT` for the others: `row(z)` and `col(z)` are read in
    /// one load, without looking at the board (they run per cell in the
    /// comprehensions over a board).
    pub(crate) rows: Vec<i64>,
    pub(crate) cols: Vec<i64>,
    /// First zone of each board, and its shape.
    boards: Vec<(u16, Shape, usize)>,
}

impl Geometry {
    /// Tables for the boards of `model`, whose spaces are the zones from
    /// `track_base[t]` on.
    pub(crate) fn new(model: &Model, track_base: &[u16], zones: usize) -> Geometry {
        let mut g = Geometry { place: vec![None; zones], around: vec![[NIL; 8]; zones], touching: vec![[NIL; 8]; zones], adjacent: vec![Vec::new(); zones], rows: vec![NONE_INT; zones], cols: vec![NONE_INT; zones], boards: Vec::new() };
        for (t, track) in model.tracks.iter().enumerate() {
            let base = track_base.get(t).copied().unwrap_or(0);
            let len = track.spaces.len();
            g.boards.push((base, track.shape, len));
            let cols = match track.shape {
                Shape::Grid { cols, .. } => i64::from(cols).max(1),
                _ => 0,
            };
            for i in 0..len {
                let (row, col) = if cols > 0 { (i as i64 / cols + 1, i as i64 % cols + 1) } else { (0, 0) };
                if let Some(p) = g.place.get_mut(base as usize + i) {
                    *p = Some(Place { track: TrackId(t as u16), index: i as u16, row, col });
                }
            }
        }
        for t in 0..model.tracks.len() {
            let (base, shape, len) = g.boards[t];
            for i in 0..len {
                let z = base + i as u16;
                let around = match (shape, g.grid_pos(z)) {
                    (Shape::Grid { .. }, Some((t, r, c))) => DIRECTIONS.map(|(dr, dc)| g.cell(t, r + dr, c + dc).unwrap_or(NIL)),
                    _ => [NIL; 8],
                };
                let adjacent = match shape {
                    Shape::Grid { hex, .. } => {
                        let touching = if hex { HEX_NEIGHBOURS } else { SQUARE_NEIGHBOURS };
                        touching.iter().map(|d| around[*d]).filter(|x| *x != NIL).map(|x| (x, 0)).collect()
                    }
                    Shape::Graph => model.tracks[t]
                        .edges
                        .iter()
                        .filter_map(|(a, b, tags)| {
                            if *a as usize == i {
                                Some((base + b, *tags))
                            } else if *b as usize == i {
                                Some((base + a, *tags))
                            } else {
                                None
                            }
                        })
                        .collect(),
                    Shape::Linear | Shape::Circular => [-1i64, 1]
                        .into_iter()
                        .filter_map(|d| g.along(TrackId(t as u16), i as i64 + d))
                        .filter(|x| *x != z)
                        .map(|x| (x, 0))
                        .collect(),
                };
                if let Some(slot) = g.around.get_mut(z as usize) {
                    *slot = around;
                }
                if let Some(slot) = g.touching.get_mut(z as usize) {
                    *slot = around;
                    if matches!(shape, Shape::Grid { hex: true, .. }) {
                        HEX_APART.iter().for_each(|d| slot[*d] = NIL);
                    }
                }
                if let Some(slot) = g.adjacent.get_mut(z as usize) {
                    *slot = merged(adjacent);
                }
                if let (Some((_, row, col)), Some(r), Some(c)) = (g.grid_pos(z), g.rows.get_mut(z as usize), g.cols.get_mut(z as usize)) {
                    (*r, *c) = (row, col);
                }
            }
        }
        g
    }

    /// The rows and columns of the grid whose cells are exactly the zones
    /// `base..base + len`, if they are a grid's (its cells are laid out
    /// row by row: row `r`, column `c` is `base + (r - 1) * cols + c - 1`).
    pub(crate) fn grid_of(&self, base: u16, len: u16) -> Option<(u16, u16)> {
        let p = self.place.get(base as usize).copied().flatten()?;
        match self.boards.get(p.track.idx()) {
            Some(&(b, Shape::Grid { rows, cols, .. }, n)) if b == base && n == usize::from(len) => Some((rows, cols)),
            _ => None,
        }
    }

    /// The first cell, rows and columns of board `t`, if it is a grid.
    pub(crate) fn grid(&self, t: TrackId) -> Option<GridCells> {
        match self.boards.get(t.idx()) {
            Some(&(base, Shape::Grid { rows, cols, .. }, _)) => Some(GridCells { base, rows: i64::from(rows), cols: i64::from(cols) }),
            _ => None,
        }
    }

    /// Row and column (from 1) of a grid cell.
    pub(crate) fn grid_pos(&self, z: u16) -> Option<(TrackId, i64, i64)> {
        let p = self.place.get(z as usize).copied().flatten()?;
        matches!(self.boards.get(p.track.idx()), Some((_, Shape::Grid { .. }, _))).then_some((p.track, p.row, p.col))
    }

    /// The cell at row `r`, column `c` (from 1) of grid `t`.
    pub(crate) fn cell(&self, t: TrackId, r: i64, c: i64) -> Option<u16> {
        self.grid(t)?.cell(r, c)
    }

    /// The cell `dr` rows and `dc` columns from cell `z`; `None` off the grid.
    /// Inlined: a unit step is a table lookup, and breakthrough takes three
    /// for each of its pieces at every move.
    #[inline]
    pub(crate) fn step(&self, z: u16, dr: i64, dc: i64) -> Option<u16> {
        // The index in DIRECTIONS of a unit step: the 3x3 square read row
        // by row, without its centre (`UNIT` is `NOT_UNIT` at the centre).
        const NOT_UNIT: u8 = u8::MAX;
        const UNIT: [u8; 9] = [0, 1, 2, 3, NOT_UNIT, 4, 5, 6, 7];
        let (i, j) = (dr.wrapping_add(1) as u64, dc.wrapping_add(1) as u64);
        if i <= 2 && j <= 2 {
            let d = UNIT[(i * 3 + j) as usize];
            if d != NOT_UNIT {
                let around = self.around.get(z as usize)?;
                return around.get(usize::from(d)).copied().filter(|x| *x != NIL);
            }
        }
        self.far_step(z, dr, dc)
    }

    /// A step that is not to one of the eight cells around.
    #[inline(never)]
    fn far_step(&self, z: u16, dr: i64, dc: i64) -> Option<u16> {
        let (t, r, c) = self.grid_pos(z)?;
        self.cell(t, r.checked_add(dr)?, c.checked_add(dc)?)
    }

    /// Space `i` (from 0) of a board, wrapping on a circular track.
    pub(crate) fn along(&self, t: TrackId, i: i64) -> Option<u16> {
        let &(base, shape, len) = self.boards.get(t.idx())?;
        let len = len as i64;
        let i = match shape {
            Shape::Circular if len > 0 => i.rem_euclid(len),
            _ => i,
        };
        (0..len).contains(&i).then(|| base + i as u16)
    }

    /// The tags of the edge joining two nodes of a graph, if one does.
    pub(crate) fn edge(&self, a: u16, b: u16) -> Option<u64> {
        let p = self.place.get(a as usize).copied().flatten()?;
        if !matches!(self.boards.get(p.track.idx()), Some((_, Shape::Graph, _))) {
            return None;
        }
        self.adjacent.get(a as usize)?.iter().find(|(x, _)| *x == b).map(|(_, tags)| *tags)
    }
}

/// Each neighbour once, in the order first met, with the tags of every edge
/// that joins it (two roads between the same towns, a road and a river;
/// the one other space of a ring of two, met both ways round).
fn merged(adjacent: Vec<(u16, u64)>) -> Vec<(u16, u64)> {
    let mut out: Vec<(u16, u64)> = Vec::with_capacity(adjacent.len());
    for (x, tags) in adjacent {
        match out.iter_mut().find(|(y, _)| *y == x) {
            Some((_, seen)) => *seen |= tags,
            None => out.push((x, tags)),
        }
    }
    out
}

/// The cells of a grid: zones `base..base + rows * cols`, row by row.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GridCells {
    pub(crate) base: u16,
    pub(crate) rows: i64,
    pub(crate) cols: i64,
}

impl GridCells {
    /// The cell at row `r`, column `c` (from 1); `None` off the grid.
    #[inline(always)]
    pub(crate) fn cell(self, r: i64, c: i64) -> Option<u16> {
        ((1..=self.rows).contains(&r) && (1..=self.cols).contains(&c)).then(|| self.base + ((r - 1) * self.cols + (c - 1)) as u16)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Game;
    use crate::{compile, Source};
    use std::sync::Arc;

    /// A unit step read from the table is the step worked out from the
    /// cell's row and column, for every cell, every step and a few that
    /// overflow; a zone that is not a cell has no step at all.
    #[test]
    fn every_step_is_the_step_by_row_and_column() {
        let text = "rulebook r { players 2..2 }\ngrid board 3 x 4\npiece p 1\nzone pile of p\nround turn { for q in players { win q } }\n";
        let model = compile(&[Source { name: "r.rules".into(), text: text.into() }]).expect("compiles");
        let game = Game::new(Arc::new(model), 2, &[]).expect("lays out");
        let g = &game.geometry;
        let mut cells = 0;
        for z in 0..g.place.len() as u16 {
            let Some((t, row, col)) = g.grid_pos(z) else {
                assert_eq!(g.step(z, 1, 0), None, "zone {z} is not a cell");
                continue;
            };
            cells += 1;
            for dr in -3..=3 {
                for dc in -3..=3 {
                    assert_eq!(g.step(z, dr, dc), g.cell(t, row + dr, col + dc), "cell {z}, step ({dr}, {dc})");
                }
            }
            for (dr, dc) in [(i64::MAX, 0), (0, i64::MIN), (i64::MIN, i64::MAX)] {
                assert_eq!(g.step(z, dr, dc), None);
            }
        }
        assert_eq!(cells, 12);
    }
}
