use clap::Parser;

fn main() {
    let cli = wakeful::cli::Cli::parse();
    if let Err(e) = wakeful::cli::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
