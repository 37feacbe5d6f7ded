ALTER TABLE "imports" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "heartbeat_at" timestamp with time zone;