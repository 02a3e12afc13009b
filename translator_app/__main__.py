from translator_app.cli import main

raise SystemExit(main())
