//! Parse a file and print its syntax tree as JSON (a debugging aid).
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_file FILE");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    match grimoire_grammar::parse(&text) {
        Ok(f) => println!("{} items", f.items.len()),
        Err(e) => println!("{:?}", miette::Report::new(e).with_source_code(text)),
    }
}
