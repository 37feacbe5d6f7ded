CREATE TABLE "import_created" (
	"import_id" bigint NOT NULL,
	"first_row" integer NOT NULL,
	"record_ids" bigint[] NOT NULL,
	CONSTRAINT "import_created_import_id_first_row_pk" PRIMARY KEY("import_id","first_row")
);
--> statement-breakpoint
ALTER TABLE "import_created" ADD CONSTRAINT "import_created_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;