//! The file, its header and its items (declarations, rules, scenarios with
//! their steps).

use super::*;
use super::expressions::{expr, postfix};
use super::statements::{block, move_what};

pub(super) fn build_file(p: P) -> Result<File, ParseError> {
    let mut k = Kids::of(p);
    let header = header(k.next()?)?;
    let mut items = Vec::new();
    for p in k.rest() {
        if p.as_rule() == Rule::item {
            items.push(item(p)?);
        }
    }
    Ok(File { header, items })
}

fn header(p: P) -> Result<Header, ParseError> {
    let sp = span(&p);
    let mut k = Kids::of(p);
    let head = k.next()?;
    let (kind, name) = match head.as_rule() {
        Rule::module_head => {
            let mut h = Kids::of(head);
            let name = ident(h.next()?);
            let extends = string(h.next()?);
            (HeaderKind::Module { extends }, name)
        }
        _ => (HeaderKind::Rulebook, ident(Kids::of(head).next()?)),
    };
    let mut h = Header { kind, name, title: None, source: None, players: None, limits: Vec::new(), cited: Vec::new(), span: sp };
    // Each clause once: with two, the last silently won.
    let mut seen: Vec<String> = Vec::new();
    for field in k.rest() {
        let f = Kids::of(field).next()?;
        let clause = match f.as_rule() {
            Rule::title_field => "title".to_string(),
            Rule::source_field => "source".to_string(),
            Rule::limit_field => Kids::of(f.clone()).next().map(|n| n.as_str().to_string()).unwrap_or_default(),
            _ => "players".to_string(),
        };
        if seen.contains(&clause) {
            let at = span(&f);
            return Err(ParseError {
                expected: format!("one `{clause}` in the header, not two"),
                span: at,
                help: Some(format!("the header says `{clause}` twice, and only one can hold: keep the one you mean")),
            });
        }
        seen.push(clause);
        match f.as_rule() {
            Rule::title_field => {
                let at = span(&f);
                let mut fk = Kids::of(f);
                h.title = Some(string(fk.next()?));
                let prov = provenances(&mut fk)?;
                if !prov.is_empty() {
                    h.cited.push(("title".to_string(), prov, at));
                }
            }
            Rule::source_field => h.source = Some(string(Kids::of(f).next()?)),
            Rule::limit_field => {
                let mut fk = Kids::of(f);
                let name = ident(fk.next()?);
                let n = fk.next()?;
                let value = n.as_str().parse::<i64>().unwrap_or(i64::MAX);
                let prov = provenances(&mut fk)?;
                if !prov.is_empty() {
                    h.cited.push((name.name.clone(), prov, span(&n)));
                }
                h.limits.push((name, value, span(&n)));
            }
            _ => {
                let mut fk = Kids::of(f);
                let r = range(fk.next()?)?;
                let prov = provenances(&mut fk)?;
                h.players = Some((r, prov));
            }
        }
    }
    Ok(h)
}

fn item(p: P) -> Result<Item, ParseError> {
    let sp = span(&p);
    let inner = Kids::of(p).next()?;
    let rule = inner.as_rule();
    let mut k = Kids::of(inner);
    let mut provenance = Vec::new();
    let kind = match rule {
        Rule::component => {
            let category = ident(k.next()?);
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            let per_player = k.next_if(Rule::per_player).is_some();
            let c = k.next()?;
            let count = int(&c)?;
            provenance = provenances(&mut k)?;
            let variants = match k.next_if(Rule::variants) {
                Some(v) => variants(v)?,
                None => Vec::new(),
            };
            ItemKind::Component(Component { category, name, label, per_player, count, count_span: span(&c), variants })
        }
        Rule::die => {
            let name = ident(k.next()?);
            let c = k.next()?;
            let sides = int(&c)?;
            provenance = provenances(&mut k)?;
            let faces = match k.next_if(Rule::variants) {
                Some(v) => variants(v)?,
                None => Vec::new(),
            };
            ItemKind::Die(Die { name, sides, sides_span: span(&c), faces })
        }
        Rule::zone => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            let mut z = Zone {
                name,
                label,
                multiplicity: Multiplicity::Single,
                kinds: Vec::new(),
                visibility: Visibility::Public,
                ordered: false,
                capacity: None,
            };
            if let Some(m) = k.next_if(Rule::multiplicity) {
                let m = Kids::of(m).next()?;
                z.multiplicity = match m.as_rule() {
                    Rule::per_space => Multiplicity::PerSpace(ident(Kids::of(m).next()?)),
                    _ => Multiplicity::PerPlayer,
                };
            }
            if let Some(kinds) = k.next_if(Rule::zone_kinds) {
                z.kinds = kinds.into_inner().map(ident).collect();
            }
            while let Some(flag) = k.next_if(Rule::zone_flag) {
                let f = Kids::of(flag).next()?;
                match f.as_rule() {
                    Rule::visibility => z.visibility = visibility(&f),
                    Rule::ordered => z.ordered = true,
                    _ => z.capacity = Some(int(&Kids::of(f).next()?)?),
                }
            }
            provenance = provenances(&mut k)?;
            ItemKind::Zone(z)
        }
        Rule::spacetype => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            provenance = provenances(&mut k)?;
            ItemKind::SpaceType { name, label }
        }
        Rule::track => {
            let name = ident(k.next()?);
            let shape = match k.next_if(Rule::track_shape) {
                Some(s) if s.as_str() == "circular" => TrackShape::Circular,
                _ => TrackShape::Linear,
            };
            provenance = provenances(&mut k)?;
            let mut rows = Vec::new();
            for row in k.rest() {
                let mut r = Kids::of(row);
                let rg = range(r.next()?)?;
                rows.push((rg, r.rest().map(ident).collect()));
            }
            ItemKind::Track(Track { name, shape, rows })
        }
        Rule::grid => {
            let name = ident(k.next()?);
            let rows = int(&k.next()?)?;
            let cols = int(&k.next()?)?;
            let hex = k.next_if(Rule::grid_hex).is_some();
            provenance = provenances(&mut k)?;
            ItemKind::Grid { name, rows, cols, hex }
        }
        Rule::graph => {
            let name = ident(k.next()?);
            provenance = provenances(&mut k)?;
            let mut nodes = Vec::new();
            let mut edges = Vec::new();
            for g in k.rest() {
                let rule = g.as_rule();
                let mut gk = Kids::of(g);
                if rule == Rule::graph_node {
                    let n = ident(gk.next()?);
                    let label = gk.next_if(Rule::string).map(string);
                    nodes.push((n, label, gk.rest().map(ident).collect()));
                } else {
                    let a = ident(gk.next()?);
                    let b = ident(gk.next()?);
                    edges.push((a, b, gk.rest().map(ident).collect()));
                }
            }
            ItemKind::Graph { name, nodes, edges }
        }
        Rule::counter => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            let per_player = k.next_if(Rule::per_player).is_some();
            let per_piece = match k.next_if(Rule::per_piece) {
                Some(pp) => Some(ident(Kids::of(pp).next()?)),
                None => None,
            };
            let r = k.next()?;
            let rsp = span(&r);
            let mut rk = Kids::of(r);
            let lo = int(&rk.next()?)?;
            let hi = int(&rk.next()?)?;
            let init = match k.next_if(Rule::expr) {
                Some(e) => Some(expr(e)?),
                None => None,
            };
            let vis = k.next_if(Rule::visibility).map(|v| visibility(&v)).unwrap_or(Visibility::Public);
            provenance = provenances(&mut k)?;
            ItemKind::Counter(Counter { name, label, per_player, per_piece, bounds: Range { lo, hi, span: rsp }, init, visibility: vis })
        }
        Rule::var => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            let per_player = k.next_if(Rule::per_player).is_some();
            let per_piece = match k.next_if(Rule::per_piece) {
                Some(pp) => Some(ident(Kids::of(pp).next()?)),
                None => None,
            };
            let ty = ident(k.next()?);
            let init = match k.next_if(Rule::expr) {
                Some(e) => Some(expr(e)?),
                None => None,
            };
            let vis = k.next_if(Rule::visibility).map(|v| visibility(&v)).unwrap_or(Visibility::Public);
            provenance = provenances(&mut k)?;
            ItemKind::Var(Var { name, label, per_player, per_piece, ty, init, visibility: vis })
        }
        Rule::table => {
            let name = ident(k.next()?);
            let key = ident(k.next()?); // the key column may be a keyword such as `players`
            let mut columns = Vec::new();
            while let Some(c) = k.next_if(Rule::name) {
                columns.push(ident(c));
            }
            provenance = provenances(&mut k)?;
            let mut rows = Vec::new();
            for row in k.rest() {
                let mut r = Kids::of(row);
                let rg = range(r.next()?)?;
                let vals = r.rest().map(expr).collect::<Result<Vec<_>, _>>()?;
                rows.push((rg, vals));
            }
            ItemKind::Table(Table { name, key, columns, rows })
        }
        Rule::option => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            provenance = provenances(&mut k)?;
            ItemKind::Option { name, label }
        }
        Rule::function => {
            let name = ident(k.next()?);
            let mut params = Vec::new();
            for param in k.next()?.into_inner() {
                let mut pk = Kids::of(param);
                params.push((ident(pk.next()?), ident(pk.next()?)));
            }
            let body = expr(k.next()?)?;
            provenance = provenances(&mut k)?;
            ItemKind::Function { name, params, body }
        }
        Rule::invariant => {
            let name = ident(k.next()?);
            let player = match k.next_if(Rule::inv_player) {
                Some(pl) => Some(ident(Kids::of(pl).next()?)),
                None => None,
            };
            let first = expr(k.next()?)?;
            let (when, body) = match k.next_if(Rule::expr) {
                Some(b) => (Some(first), expr(b)?),
                None => (None, first),
            };
            provenance = provenances(&mut k)?;
            ItemKind::Invariant { name, player, when, expr: body }
        }
        Rule::scenario => {
            let name = ident(k.next()?);
            let mut sc = Scenario { name, players: None, seed: None, options: Vec::new(), with: Vec::new(), steps: Vec::new() };
            while let Some(clause) = k.next_if(Rule::scen_clause) {
                let c = Kids::of(clause).next()?;
                let rule = c.as_rule();
                let mut ck = Kids::of(c);
                match rule {
                    Rule::scen_players => {
                        let n = ck.next()?;
                        sc.players = Some((int(&n)?, span(&n)));
                    }
                    Rule::scen_seed => {
                        let n = ck.next()?;
                        sc.seed = Some((int(&n)?, span(&n)));
                    }
                    Rule::scen_option => sc.options.push(ident(ck.next()?)),
                    _ => sc.with.extend(ck.rest().map(ident)),
                }
            }
            provenance = provenances(&mut k)?;
            sc.steps = k.rest().map(step).collect::<Result<Vec<_>, _>>()?;
            ItemKind::Scenario(sc)
        }
        Rule::setup => {
            provenance = provenances(&mut k)?;
            ItemKind::Setup(block(k.next()?)?)
        }
        Rule::round => {
            let name = ident(k.next()?);
            let times = match k.next_if(Rule::expr) {
                Some(e) => Some(expr(e)?),
                None => None,
            };
            provenance = provenances(&mut k)?;
            ItemKind::Round { name, times, body: block(k.next()?)? }
        }
        Rule::procedure => {
            let kind = match k.next()?.as_str() {
                "phase" => ProcKind::Phase,
                "trigger" => ProcKind::Trigger,
                _ => ProcKind::Rule,
            };
            let name = ident(k.next()?);
            let mut params = Vec::new();
            if let Some(ps) = k.next_if(Rule::params) {
                for param in ps.into_inner() {
                    let mut pk = Kids::of(param);
                    params.push((ident(pk.next()?), ident(pk.next()?)));
                }
            }
            let event = match k.next_if(Rule::event) {
                Some(e) => {
                    let mut ek = Kids::of(e);
                    Some(Event {
                        name: ident(ek.next()?),
                        piece: ident(ek.next()?),
                        kind: ident(ek.next()?),
                        zone: ident(ek.next()?),
                    })
                }
                None => None,
            };
            let when = match k.next_if(Rule::expr) {
                Some(e) => Some(expr(e)?),
                None => None,
            };
            provenance = provenances(&mut k)?;
            let body = block(k.next()?)?;
            ItemKind::Procedure(Procedure { kind, name, params, event, when, body })
        }
        Rule::end_cond => {
            let name = ident(k.next()?);
            let when = expr(k.next()?)?;
            provenance = provenances(&mut k)?;
            ItemKind::End { name, when, body: block(k.next()?)? }
        }
        Rule::exception => {
            let name = ident(k.next()?);
            let rule = ident(k.next()?);
            let when = expr(k.next()?)?;
            let mode = match k.next_if(Rule::exc_mode).map(|m| m.as_str().to_string()).as_deref() {
                Some("before") => ExceptionMode::Before,
                Some("after") => ExceptionMode::After,
                _ => ExceptionMode::Instead,
            };
            let over = match k.next_if(Rule::over) {
                Some(o) => o.into_inner().map(ident).collect(),
                None => Vec::new(),
            };
            provenance = provenances(&mut k)?;
            ItemKind::Exception(Exception { name, rule, when, mode, over, body: block(k.next()?)? })
        }
        Rule::assumption => {
            let name = ident(k.next()?);
            let text = string(k.next()?);
            provenance = provenances(&mut k)?;
            ItemKind::Assumption { name, text }
        }
        Rule::discrepancy => {
            let name = ident(k.next()?);
            let (mut chosen, mut because) = (None, None);
            for part in k.rest() {
                let clause = match part.as_rule() {
                    Rule::provenance => {
                        provenance.push(self::provenance(part)?);
                        continue;
                    }
                    Rule::chosen => "chosen",
                    _ => "because",
                };
                let slot = if clause == "chosen" { &mut chosen } else { &mut because };
                // Each once: with two, the last silently won and the first
                // reading vanished from the report.
                if slot.is_some() {
                    return Err(ParseError {
                        expected: format!("one `{clause}` in the discrepancy, not two"),
                        span: span(&part),
                        help: Some(format!("a discrepancy records one reading and why: keep the `{clause}` you mean, or write the other reading as a discrepancy of its own")),
                    });
                }
                *slot = Some(string(Kids::of(part).next()?));
            }
            return Ok(Item { kind: ItemKind::Discrepancy { name, chosen, because }, provenance, span: sp });
        }
        Rule::narrative => {
            let name = ident(k.next()?);
            let text = string(k.next()?);
            provenance = provenances(&mut k)?;
            ItemKind::Narrative { name, text }
        }
        Rule::replace => ItemKind::Replace(Box::new(item(k.next()?)?)),
        _ => {
            let what = ident(k.next()?);
            let name = k.next_if(Rule::name).map(ident);
            provenance = provenances(&mut k)?;
            ItemKind::Remove { what, name }
        }
    };
    Ok(Item { kind, provenance, span: sp })
}

fn visibility(p: &P) -> Visibility {
    match p.as_str() {
        "owner" => Visibility::Owner,
        "hidden" => Visibility::Hidden,
        _ => Visibility::Public,
    }
}

fn variants(p: P) -> Result<Vec<Variant>, ParseError> {
    let mut out = Vec::new();
    for v in p.into_inner() {
        let sp = span(&v);
        let mut k = Kids::of(v);
        let name = ident(k.next()?);
        let label = k.next_if(Rule::string).map(string);
        let count = match k.next_if(Rule::multiplier) {
            Some(m) => int(&Kids::of(m).next()?)?,
            None => 1,
        };
        let mut attrs = Vec::new();
        while let Some(a) = k.next_if(Rule::attr) {
            let mut ak = Kids::of(a);
            let n = ident(ak.next()?);
            attrs.push((n, int(&ak.next()?)?));
        }
        let provenance = provenances(&mut k)?;
        out.push(Variant { name, label, count, attrs, provenance, span: sp });
    }
    Ok(out)
}

// ---------------------------------------------------------------- scenario steps

fn step(p: P) -> Result<Step, ParseError> {
    let sp = span(&p);
    let mut outer = Kids::of(p);
    let inner = outer.next()?;
    let provenance = provenances(&mut outer)?;
    let rule = inner.as_rule();
    let mut k = Kids::of(inner);
    let kind = match rule {
        Rule::step_choose => StepKind::Choose(expr(k.next()?)?),
        Rule::step_play => {
            let what = k.next()?;
            if what.as_rule() == Rule::play_until {
                let until = Kids::of(what).next()?;
                match until.as_rule() {
                    Rule::play_over => StepKind::PlayToEnd,
                    _ => StepKind::PlayUntil(expr(until)?),
                }
            } else {
                StepKind::Play(int(&what)?)
            }
        }
        Rule::step_place => {
            let what = move_what(k.next()?)?;
            let to = expr(k.next()?)?;
            let bottom = k.next_if(Rule::bottom).is_some();
            StepKind::Place { what, to, bottom }
        }
        Rule::step_set => {
            let lhs = postfix(k.next()?)?;
            let op = match k.next()?.as_str() {
                "+=" => AssignOp::Add,
                "-=" => AssignOp::Sub,
                _ => AssignOp::Set,
            };
            StepKind::Set(lhs, op, expr(k.next()?)?)
        }
        _ => {
            let what = k.next()?;
            match what.as_rule() {
                Rule::expect_options => {
                    let mut ek = Kids::of(what);
                    let test = match ek.next()?.as_str() {
                        "contain" => OptionsTest::Contain,
                        "exclude" => OptionsTest::Exclude,
                        _ => OptionsTest::Equal,
                    };
                    let labels = ek.next()?;
                    let labels = labels.into_inner().map(string).collect();
                    StepKind::ExpectOptions(test, labels)
                }
                Rule::expect_prompt => StepKind::ExpectPrompt(string(Kids::of(what).next()?)),
                Rule::expect_over => StepKind::ExpectOver(what.into_inner().next().is_none()),
                _ => StepKind::Expect(expr(what)?),
            }
        }
    };
    Ok(Step { kind, provenance, span: sp })
}
