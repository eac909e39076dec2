/**
 * Generated from docs/openapi.json by `npm run client:types` (openapi-typescript). Do not edit:
 * change the route table, regenerate the document (`npm run openapi`), then these types.
 */

export interface paths {
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description This OpenAPI 3.1 document. Public: no credentials, no rate limit.
         */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Exchange the apiToken for an access token (client credentials)
         * @description Exchange the apiToken for an access token (client credentials). `Authorization: Basic <apiToken>`; the only route that takes the apiToken. A 503 means nothing was written; a 504 that the outcome is unknown.
         */
        get: operations["oauthToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/event/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the change feed: every change of the account, oldest first, from a cursor or an instant
         * @description Read the change feed: every change of the account, oldest first, from a cursor or an instant. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["eventList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search tickets, each as its detail (with view=summary, without the conversation)
         * @description List or search tickets, each as its detail (with view=summary, without the conversation). 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find tickets by their words and fields (the query language: docs/search.md), each as its detail with highlights
         * @description Find tickets by their words and fields (the query language: docs/search.md), each as its detail with highlights. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one ticket with its documents and its most recent replies and notes
         * @description Read one ticket with its documents and its most recent replies and notes. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a ticket's own documents (those of attachedDocuments)
         * @description Page through a ticket's own documents (those of attachedDocuments). 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketDocuments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a ticket's replies, oldest first
         * @description Page through a ticket's replies, oldest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketReplies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a ticket's notes, oldest first
         * @description Page through a ticket's notes, oldest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketNotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a ticket's history: every change, who made it, what it changed; oldest first
         * @description Page through a ticket's history: every change, who made it, what it changed; oldest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a ticket
         * @description Open a ticket. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["ticketInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a ticket (merge); replies and documents sent are added
         * @description Change a ticket (merge); replies and documents sent are added. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a ticket: to the trash, where it can be restored until it is purged
         * @description Delete a ticket: to the trash, where it can be restored until it is purged. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/trash/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tickets in the trash, most recently deleted first
         * @description List the tickets in the trash, most recently deleted first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketTrashList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/restore/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Restore a ticket from the trash, as it was deleted
         * @description Restore a ticket from the trash, as it was deleted. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketRestore"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/purge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a ticket in the trash for good, now (its replies, notes and files follow)
         * @description Remove a ticket in the trash for good, now (its replies, notes and files follow). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketPurge"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/merge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Merge tickets into this one: their conversations read as part of its own (undo: unmerge)
         * @description Merge tickets into this one: their conversations read as part of its own (undo: unmerge). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketMerge"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/unmerge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Undo the merge of this ticket (within 30 days): both tickets back as they were
         * @description Undo the merge of this ticket (within 30 days): both tickets back as they were. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketUnmerge"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/reply/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add a reply
         * @description Add a reply. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketReply"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/addNote/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add a note
         * @description Add a note. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketAddNote"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change many tickets in one call: up to 100 inserts, updates, deletes, replies and notes, each run as its own route would and answered with its own outcome
         * @description Change many tickets in one call: up to 100 inserts, updates, deletes, replies and notes, each run as its own route would and answered with its own outcome. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        post: operations["ticketBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/attachment/{documentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an attached document (302 to a short-lived address)
         * @description Download an attached document (302 to a short-lived address). Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/attachment/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a presigned address to upload a file too big for a JSON body
         * @description Get a presigned address to upload a file too big for a JSON body. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new resource and its address in `Location`.
         */
        post: operations["ticketAttachmentUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API reference: this document rendered as a page, with a getting-started walk-through
         * @description API reference: this document rendered as a page, with a getting-started walk-through. Public: no credentials, no rate limit.
         */
        get: operations["docsPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/redoc.standalone.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference's renderer (Redoc's standalone script, cached for a year)
         * @description The API reference's renderer (Redoc's standalone script, cached for a year). Public: no credentials, no rate limit.
         */
        get: operations["docsRenderer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search customers
         * @description List or search customers. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one customer
         * @description Read one customer. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a customer
         * @description Create a customer. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["customerInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a customer (merge: only the fields sent)
         * @description Change a customer (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["customerUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a customer
         * @description Delete a customer. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["customerDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change many customers in one call: up to 100 inserts, updates and deletes, each run as its own route would and answered with its own outcome
         * @description Change many customers in one call: up to 100 inserts, updates and deletes, each run as its own route would and answered with its own outcome. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        post: operations["customerBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/photo/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a customer's photo (its bytes with their media type)
         * @description Read a customer's photo (its bytes with their media type). Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerPhoto"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find customers by their words (the query language: docs/search.md), each with highlights
         * @description Find customers by their words (the query language: docs/search.md), each with highlights. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a customer's history: every change, who made it, what it changed; oldest first
         * @description Page through a customer's history: every change, who made it, what it changed; oldest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/export/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an export job: its state and, once done, the document's short-lived download address
         * @description Read an export job: its state and, once done, the document's short-lived download address. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerExportStatus"];
        put?: never;
        /**
         * Export everything of a customer (record, tickets with their conversations, history, files) as one JSON document: a job
         * @description Export everything of a customer (record, tickets with their conversations, history, files) as one JSON document: a job. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["customerExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/erase/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an erasure job: its state and, once done, its receipt (what was changed, per kind)
         * @description Read an erasure job: its state and, once done, its receipt (what was changed, per kind). Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerEraseStatus"];
        put?: never;
        /**
         * Erase a customer's personal data everywhere (their tickets deleted or anonymised; `dryRun` only counts): a job
         * @description Erase a customer's personal data everywhere (their tickets deleted or anonymised; `dryRun` only counts): a job. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["customerErase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search agents
         * @description List or search agents. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["agentList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one agent
         * @description Read one agent. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["agentDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an agent
         * @description Create an agent. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["agentInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change an agent (merge: only the fields sent)
         * @description Change an agent (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["agentUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an agent
         * @description Delete an agent. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["agentDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search ticket types
         * @description List or search ticket types. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketTypeList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one ticket type
         * @description Read one ticket type. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketTypeDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a ticket type
         * @description Create a ticket type. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["ticketTypeInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a ticket type (merge: only the fields sent)
         * @description Change a ticket type (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketTypeUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a ticket type
         * @description Delete a ticket type. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketTypeDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search ticket areas
         * @description List or search ticket areas. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketAreaList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one ticket area
         * @description Read one ticket area. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketAreaDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a ticket area
         * @description Create a ticket area. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["ticketAreaInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a ticket area (merge: only the fields sent)
         * @description Change a ticket area (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketAreaUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a ticket area
         * @description Delete a ticket area. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketAreaDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search ticket groups
         * @description List or search ticket groups. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketGroupList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one ticket group
         * @description Read one ticket group. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketGroupDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a ticket group
         * @description Create a ticket group. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["ticketGroupInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a ticket group (merge: only the fields sent)
         * @description Change a ticket group (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketGroupUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a ticket group
         * @description Delete a ticket group. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketGroupDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search webhook subscriptions
         * @description List or search webhook subscriptions. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["webhookList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one webhook subscription
         * @description Read one webhook subscription. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["webhookDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a webhook subscription
         * @description Create a webhook subscription. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown.
         */
        post: operations["webhookInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a webhook subscription (merge: only the fields sent)
         * @description Change a webhook subscription (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["webhookUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Delete a webhook subscription. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["webhookDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a webhook subscription's delivery attempts (30 days), newest first
         * @description Page through a webhook subscription's delivery attempts (30 days), newest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["webhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin importing a help desk: a job, with a presigned address to upload its NDJSON file to (docs/import.md)
         * @description Begin importing a help desk: a job, with a presigned address to upload its NDJSON file to (docs/import.md). Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new resource and its address in `Location`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["importCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an import job: its state, counts per kind, progress and estimate (while created, a fresh upload address)
         * @description Read an import job: its state, counts per kind, progress and estimate (while created, a fresh upload address). Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["importDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Start an import job once its file is uploaded (safe to repeat: a running job goes on)
         * @description Start an import job once its file is uploaded (safe to repeat: a running job goes on). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["importStart"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Cancel an import job: no further line is applied; what it wrote stays
         * @description Cancel an import job: no further line is applied; what it wrote stays. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["importCancel"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import/{id}/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through an import job's failed lines, in line order, each with its problem
         * @description Page through an import job's failed lines, in line order, each with its problem. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["importErrors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Labels: {
            en: string;
            it: string;
            es: string;
            fr: string;
        };
        Status: {
            /** @enum {string} */
            status: "opened" | "on hold" | "solved" | "closed" | "onhold";
            labels: components["schemas"]["Labels"];
        };
        Source: {
            /** @enum {string} */
            source: "web" | "email" | "phone" | "chat" | "api" | "twitter" | "facebook" | "linkedin" | "googleplus" | "youtube";
            labels: components["schemas"]["Labels"];
        };
        FieldError: {
            /** @description The field or parameter, dotted (`attachedDocuments.1.documentBlob`). */
            path: string;
            message: string;
        };
        Ticket: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description `<sequence>/<year>`, per account and year. */
            number: string;
            subject: string;
            description: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            insertDate: number;
            /** @description Date of the last edit, reply or status change. */
            managedDate: number;
            closedDate: number | null;
            priority: 0 | 1;
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Agents in copy (an entry is null only if that agent was removed from the ticket and deleted while it was being read). */
            cc: (components["schemas"]["Agent"] | null)[];
            /** @description The customer who opened the ticket; null when that customer was erased (`POST /customer/erase/{id}`, the ticket kept anonymised), or if the ticket and then the customer were deleted while it was being read. */
            openedBy: components["schemas"]["Customer"] | null;
            numberOfReplies: number;
            tags: {
                tag: string;
            }[];
            status: components["schemas"]["Status"];
            type: components["schemas"]["TicketType"] | null;
            area: components["schemas"]["TicketArea"] | null;
            group: components["schemas"]["TicketGroup"] | null;
            memo: string | null;
            source: components["schemas"]["Source"];
            customFields: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId: string | null;
            tweetType: ("mention" | "direct message") | null;
            facebookId: string | null;
            facebookType: ("post" | "private message") | null;
            linkedinId: string | null;
            linkedinType: string | null;
            googlePlusId: string | null;
            googlePlusType: string | null;
            youtubeId: string | null;
            youtubeType: string | null;
            messageUniqueId: string | null;
            customPortalId: string | null;
            /** @description An agent has to reply. */
            toReply: boolean;
            /** @description The customer has to reply. */
            toReplyCustomer: boolean;
            /** @description The record's key in the integrator's own system (searchable). */
            externalId1: string | null;
            /** @description The ticket this one was merged into (`PUT /ticket/merge/{id}`): it is closed and takes no replies, notes or changes until unmerged. Null if none. */
            mergedInto: string | null;
            /** @description The tickets merged into this one, oldest merge first: their replies, notes and documents read as part of this ticket's conversation. */
            mergedTickets: string[];
            /** @description The most recent replies that fit, oldest first. */
            replies: components["schemas"]["Reply"][];
            /** @description The ticket's own documents that fit, in the order added. */
            attachedDocuments: components["schemas"]["Document"][];
            /** @description The most recent notes that fit, oldest first. */
            ticketNotes: components["schemas"]["Note"][];
            /** @description Some documents were left out (page through `documentsUrl`). */
            documentsTruncated: boolean;
            /** Format: uri */
            documentsUrl: string;
            /** @description Some replies were left out (page through `repliesUrl`). */
            repliesTruncated: boolean;
            /** Format: uri */
            repliesUrl: string;
            /** @description Some notes were left out (page through `notesUrl`). */
            notesTruncated: boolean;
            /** Format: uri */
            notesUrl: string;
        };
        Customer: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description Full name. */
            name: string;
            birthDate: number | null;
            email: string;
            phoneNumber: string | null;
            faxNumber: string | null;
            mobileNumber: string | null;
            address: string | null;
            city: string | null;
            province: string | null;
            state: string | null;
            postalNumber: string | null;
            skypeAddress: string | null;
            msnAddress: string | null;
            gtalkAddress: string | null;
            twitterAccountUrl: string | null;
            facebookAccountUrl: string | null;
            linkedinAccountUrl: string | null;
            googleAccountUrl: string | null;
            youtubeAccountUrl: string | null;
            registrationChannel: string | null;
            /** @description Preferred customer. */
            topClient: boolean;
            /**
             * Format: uri
             * @description Where the photo is read (`GET /customer/photo/{id}`; 404 without a photo).
             */
            profilePhotoUrl: string;
            /** @description Write-only (upload a photo with it); always null on read. */
            profilePhotoBlob: null;
            signature: string | null;
            memo: string | null;
            website: string | null;
            company: string | null;
            /**
             * @description Interface and e-mail language.
             * @enum {string}
             */
            language: "en" | "it" | "es" | "fr";
            account: {
                username: string | null;
            } | null;
            insertByAgentId: string | null;
            customFields: {
                [key: string]: string | number | boolean | null;
            } | null;
        };
        Agent: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            name: string;
            email: string;
            phoneNumber: string | null;
            /**
             * @description Interface and e-mail language.
             * @enum {string}
             */
            language: "en" | "it" | "es" | "fr";
            signature: string | null;
        };
        TicketType: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description The ticket type's name. */
            type: string;
            labels: components["schemas"]["Labels"];
        };
        TicketArea: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description The ticket area's name. */
            area: string;
            labels: components["schemas"]["Labels"];
        };
        TicketGroup: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description The ticket group's name. */
            group: string;
            labels: components["schemas"]["Labels"];
        };
        Reply: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            text: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            replyDate: number;
            /** @description The agent who wrote it; null for the customer's replies (or a deleted agent). */
            replyFromOperator: components["schemas"]["Agent"] | null;
            attachedDocuments: components["schemas"]["Document"][];
        };
        Note: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            note: string;
            /** @description An agent; null when none was named, or the agent has been deleted since. */
            insertBy: components["schemas"]["Agent"] | null;
            /** @description An agent; null when none was named, or the agent has been deleted since. */
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            date: number;
            remindMe: number | null;
        };
        Document: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            documentName: string;
            /** @description Media type of the file. */
            documentType: string;
            /** @description Bytes. */
            size: number;
            /** @description `sha256:<hex>` of the bytes, or `etag:<S3 ETag>` for presigned uploads. */
            checksum: string;
            /**
             * Format: uri
             * @description Answers 302 to a short-lived address that downloads the bytes.
             */
            downloadUrl: string;
        };
        Webhook: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /**
             * Format: uri
             * @description Where deliveries are POSTed.
             */
            url: string;
            /** @description Event types delivered; empty: all of them. */
            types: ("customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed")[];
            /** @description Deliveries run. */
            enabled: boolean;
            description: string | null;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            createdAt: number;
            /** @description Why deliveries stopped (persistent failure); null while enabled or when disabled by an update. */
            disabledReason: string | null;
        };
        WebhookDelivery: {
            /** @description The event delivered (the `webhook-id` header; GET /event/list shows it). */
            eventId: string;
            /**
             * @description Its type.
             * @enum {string}
             */
            eventType: "customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed";
            /** @description The event's attempt number: 1, then 2… for its retries. */
            attempt: number;
            /** @description When the attempt was made. */
            at: number;
            /** @description The receiver answered 2xx. */
            ok: boolean;
            /** @description The receiver's HTTP status; null when it did not answer. */
            status: number | null;
            /** @description Why the attempt failed; null when it did not. */
            error: string | null;
            /** @description The first 200 characters of what the receiver answered; null when nothing. */
            response: string | null;
            /** @description How long the attempt took (ms). */
            ms: number;
        };
        /** @description A deleted ticket in the trash: its summary as it was deleted (restore puts it back as it was, replies, notes and documents included), `deletedAt` and `purgesAt`. */
        TrashedTicket: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description `<sequence>/<year>`, per account and year. */
            number: string;
            subject: string;
            description: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            insertDate: number;
            /** @description Date of the last edit, reply or status change. */
            managedDate: number;
            closedDate: number | null;
            priority: 0 | 1;
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Agents in copy (an entry is null only if that agent was removed from the ticket and deleted while it was being read). */
            cc: (components["schemas"]["Agent"] | null)[];
            /** @description The customer who opened the ticket; null when that customer was erased (`POST /customer/erase/{id}`, the ticket kept anonymised), or if the ticket and then the customer were deleted while it was being read. */
            openedBy: components["schemas"]["Customer"] | null;
            numberOfReplies: number;
            tags: {
                tag: string;
            }[];
            status: components["schemas"]["Status"];
            type: components["schemas"]["TicketType"] | null;
            area: components["schemas"]["TicketArea"] | null;
            group: components["schemas"]["TicketGroup"] | null;
            memo: string | null;
            source: components["schemas"]["Source"];
            customFields: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId: string | null;
            tweetType: ("mention" | "direct message") | null;
            facebookId: string | null;
            facebookType: ("post" | "private message") | null;
            linkedinId: string | null;
            linkedinType: string | null;
            googlePlusId: string | null;
            googlePlusType: string | null;
            youtubeId: string | null;
            youtubeType: string | null;
            messageUniqueId: string | null;
            customPortalId: string | null;
            /** @description An agent has to reply. */
            toReply: boolean;
            /** @description The customer has to reply. */
            toReplyCustomer: boolean;
            /** @description The record's key in the integrator's own system (searchable). */
            externalId1: string | null;
            /** @description The ticket this one was merged into (`PUT /ticket/merge/{id}`): it is closed and takes no replies, notes or changes until unmerged. Null if none. */
            mergedInto: string | null;
            /** @description The tickets merged into this one, oldest merge first: their replies, notes and documents read as part of this ticket's conversation. */
            mergedTickets: string[];
            /** @description When it was deleted (ms since the Unix epoch). */
            deletedAt: number;
            /** @description When the trash lets it go (ms since the Unix epoch): it is purged for good then, at the latest within two days after. */
            purgesAt: number;
        };
        /** @description One change of a ticket or a customer, as it was committed (written in its own transaction: never missing, never twice). Kept two years unless the operator set otherwise. */
        HistoryEntry: {
            /** @description The entry's id (entries sort by it: oldest first). */
            id: string;
            /** @description When the change was committed (ms since the Unix epoch): the time of its events too. */
            at: number;
            /**
             * @description What happened. `status_changed`: an update that changed the status (and with it the closed date) alone; `merged`/`unmerged`: on both tickets.
             * @enum {string}
             */
            kind: "created" | "updated" | "status_changed" | "replied" | "note_added" | "merged" | "unmerged" | "trashed" | "restored" | "erased";
            /** @description Who made the change. */
            actor: {
                /** @description The API client that made the change. */
                clientId: string;
                /** @description The agent the request named as its author (a reply's `replyFromOperator`, a note's `insertBy`); null when it named none. */
                agentId: string | null;
                /** @description The request (its `x-request-id` answer header); null for changes no API request made (the trash's expiry, an import). */
                requestId: string | null;
                /** @description The import job that made the change (`GET /import/{id}`); null otherwise. */
                importId: string | null;
            };
            /** @description For updates, merges and unmerges: each field that changed, with its stored value before and after (references as ids; null: absent). Empty for other kinds. */
            changes: {
                field: string;
                before: unknown;
                after: unknown;
            }[];
            /** @description Replies the change added (ids). */
            replies: string[];
            /** @description Notes the change added (ids). */
            notes: string[];
            /** @description Documents the change added (ids). */
            documents: string[];
        };
        /** @description An export of one customer's data. */
        ExportJob: {
            /** @description The job's id: read its state at `statusUrl`. */
            id: string;
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            customerId: string;
            /**
             * @description `pending` until the worker finished it (seconds, usually); `done`; an export `expired` once its links stopped working (ask for a new one) or `gone` when the customer was erased or deleted before it was made.
             * @enum {string}
             */
            status: "pending" | "done" | "expired" | "gone";
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            requestedAt: number;
            /** @description When it finished (ms); null while pending. */
            finishedAt: number | null;
            /**
             * Format: uri
             * @description Where the job's state is read.
             */
            statusUrl: string;
            /** @description Once done: a short-lived address of the export, one JSON document (`customer`, `history`, `tickets` with each ticket's replies, notes, documents and history). It and every file link inside it work until `expiresAt`; null otherwise. */
            downloadUrl: string | null;
            /** @description Until when `downloadUrl` and the links in the document work (ms); null while pending. */
            expiresAt: number | null;
        };
        /** @description An erasure of one customer's personal data. */
        ErasureJob: {
            /** @description The job's id: read its state at `statusUrl`. */
            id: string;
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            customerId: string;
            /**
             * @description `pending` until the worker reached every copy; then `done`.
             * @enum {string}
             */
            status: "pending" | "done";
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            requestedAt: number;
            /** @description When it finished (ms); null while pending. */
            finishedAt: number | null;
            /**
             * Format: uri
             * @description Where the job's state is read.
             */
            statusUrl: string;
            /**
             * @description What happens to the tickets the customer opened.
             * @enum {string}
             */
            mode: "anonymise" | "delete";
            /** @description Only counts what an erasure would change: nothing was or will be changed. */
            dryRun: boolean;
            /** @description Once done: what was changed per kind (for a dry run, what would be); null while pending. */
            receipt: {
                /** @description The customer record (1). */
                customers: number;
                /** @description Photo objects removed. */
                photos: number;
                /** @description Tickets deleted (`delete`) or anonymised (`anonymise`). */
                tickets: number;
                /** @description Replies deleted with their tickets, or replaced/redacted. */
                replies: number;
                /** @description Notes deleted with their tickets, or redacted. */
                notes: number;
                /** @description Documents deleted (with their tickets, or the customer's own), or renamed. */
                documents: number;
                /** @description History entries deleted (the customer's) or redacted (their tickets'). */
                historyEntries: number;
                /** @description Change-feed events whose bodies were emptied or anonymised. */
                events: number;
                /** @description Webhook delivery attempts of those events whose receiver's answer excerpt was removed. */
                deliveries: number;
                /** @description Export documents of the customer removed. */
                exports: number;
            } | null;
        };
        /** @description An import of a help desk from an NDJSON file (docs/import.md). */
        ImportJob: {
            /** @description The job's id. */
            id: string;
            /**
             * @description `created`: waiting for its file (PUT it to `uploadUrl`, then start it); `running`; `completed`: every line read; `cancelled`; `failed`: its file could not be read (`reason`).
             * @enum {string}
             */
            status: "created" | "running" | "completed" | "cancelled" | "failed";
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            createdAt: number;
            /** @description When it was started (ms); null before. */
            startedAt: number | null;
            /** @description When it completed, was cancelled or failed (ms); null before. */
            finishedAt: number | null;
            /** @description The file's size in bytes, once started. */
            size: number | null;
            /** @description Bytes of the file done: every line before them applied and counted. */
            bytesRead: number;
            /** @description Lines of the file done. */
            linesRead: number;
            /** @description Per kind of line (`unreadable`: lines that were not JSON, or too long, whose kind is unknown). */
            counts: {
                /** @description Lines of one kind. */
                agent: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                customer: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                ticketType: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                ticketArea: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                ticketGroup: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                ticket: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                unreadable: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
            };
            /** @description Every kind added up. */
            totals: {
                /** @description Lines read: created + skipped + failed. */
                read: number;
                /** @description Records this job created. */
                created: number;
                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                skipped: number;
                /** @description Lines refused, each with its problem at `errorsUrl`. */
                failed: number;
            };
            /** @description Share of the file done (bytes), 0 to 1. */
            progress: number;
            /** @description Estimated seconds until it completes, at the pace so far; null before there is a pace or once it ended. */
            etaSeconds: number | null;
            /** @description Why it failed; null otherwise. */
            reason: string | null;
            /** @description While `created`: a presigned address to PUT the file to (NDJSON, `application/x-ndjson`), valid `expiresIn` seconds; each read of the job answers a fresh one. Null once started. */
            uploadUrl: string | null;
            /** @description Seconds `uploadUrl` stays valid; null when there is none. */
            expiresIn: number | null;
            /** @description The largest file accepted (bytes). */
            maxBytes: number;
            /**
             * Format: uri
             * @description Where the job's state is read.
             */
            statusUrl: string;
            /**
             * Format: uri
             * @description Where its failed lines are paged, in line order.
             */
            errorsUrl: string;
        };
        ImportError: {
            /** @description Its line number in the file, from 1. */
            line: number;
            /** @description Its `kind`; null when it could not be read. */
            kind: ("agent" | "customer" | "ticketType" | "ticketArea" | "ticketGroup" | "ticket") | null;
            /** @description Its `externalId`; null when it could not be read. */
            externalId: string | null;
            /** @description Why it failed: the problem its API request would have answered. */
            problem: {
                /** @description Stable URN to branch on (docs/errors.md). */
                type: string;
                title: string;
                status: number;
                detail: string;
                errors?: components["schemas"]["FieldError"][];
            };
        };
        TicketMatch: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description `<sequence>/<year>`, per account and year. */
            number: string;
            subject: string;
            description: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            insertDate: number;
            /** @description Date of the last edit, reply or status change. */
            managedDate: number;
            closedDate: number | null;
            priority: 0 | 1;
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Agents in copy (an entry is null only if that agent was removed from the ticket and deleted while it was being read). */
            cc: (components["schemas"]["Agent"] | null)[];
            /** @description The customer who opened the ticket; null when that customer was erased (`POST /customer/erase/{id}`, the ticket kept anonymised), or if the ticket and then the customer were deleted while it was being read. */
            openedBy: components["schemas"]["Customer"] | null;
            numberOfReplies: number;
            tags: {
                tag: string;
            }[];
            status: components["schemas"]["Status"];
            type: components["schemas"]["TicketType"] | null;
            area: components["schemas"]["TicketArea"] | null;
            group: components["schemas"]["TicketGroup"] | null;
            memo: string | null;
            source: components["schemas"]["Source"];
            customFields: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId: string | null;
            tweetType: ("mention" | "direct message") | null;
            facebookId: string | null;
            facebookType: ("post" | "private message") | null;
            linkedinId: string | null;
            linkedinType: string | null;
            googlePlusId: string | null;
            googlePlusType: string | null;
            youtubeId: string | null;
            youtubeType: string | null;
            messageUniqueId: string | null;
            customPortalId: string | null;
            /** @description An agent has to reply. */
            toReply: boolean;
            /** @description The customer has to reply. */
            toReplyCustomer: boolean;
            /** @description The record's key in the integrator's own system (searchable). */
            externalId1: string | null;
            /** @description The ticket this one was merged into (`PUT /ticket/merge/{id}`): it is closed and takes no replies, notes or changes until unmerged. Null if none. */
            mergedInto: string | null;
            /** @description The tickets merged into this one, oldest merge first: their replies, notes and documents read as part of this ticket's conversation. */
            mergedTickets: string[];
            /** @description The most recent replies that fit, oldest first. */
            replies: components["schemas"]["Reply"][];
            /** @description The ticket's own documents that fit, in the order added. */
            attachedDocuments: components["schemas"]["Document"][];
            /** @description The most recent notes that fit, oldest first. */
            ticketNotes: components["schemas"]["Note"][];
            /** @description Some documents were left out (page through `documentsUrl`). */
            documentsTruncated: boolean;
            /** Format: uri */
            documentsUrl: string;
            /** @description Some replies were left out (page through `repliesUrl`). */
            repliesTruncated: boolean;
            /** Format: uri */
            repliesUrl: string;
            /** @description Some notes were left out (page through `notesUrl`). */
            notesTruncated: boolean;
            /** Format: uri */
            notesUrl: string;
            /** @description Where the words of the query matched: field (`subject`, `description`, `replies`, `notes`, `documents`, `customer`; for customers `name`, `email`, `details`) → up to 3 snippets, the matched words between `<em>` and `</em>`, the rest HTML-escaped. Empty for a query of filters alone. */
            highlights: {
                [key: string]: string[];
            };
        };
        CustomerMatch: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description Full name. */
            name: string;
            birthDate: number | null;
            email: string;
            phoneNumber: string | null;
            faxNumber: string | null;
            mobileNumber: string | null;
            address: string | null;
            city: string | null;
            province: string | null;
            state: string | null;
            postalNumber: string | null;
            skypeAddress: string | null;
            msnAddress: string | null;
            gtalkAddress: string | null;
            twitterAccountUrl: string | null;
            facebookAccountUrl: string | null;
            linkedinAccountUrl: string | null;
            googleAccountUrl: string | null;
            youtubeAccountUrl: string | null;
            registrationChannel: string | null;
            /** @description Preferred customer. */
            topClient: boolean;
            /**
             * Format: uri
             * @description Where the photo is read (`GET /customer/photo/{id}`; 404 without a photo).
             */
            profilePhotoUrl: string;
            /** @description Write-only (upload a photo with it); always null on read. */
            profilePhotoBlob: null;
            signature: string | null;
            memo: string | null;
            website: string | null;
            company: string | null;
            /**
             * @description Interface and e-mail language.
             * @enum {string}
             */
            language: "en" | "it" | "es" | "fr";
            account: {
                username: string | null;
            } | null;
            insertByAgentId: string | null;
            customFields: {
                [key: string]: string | number | boolean | null;
            } | null;
            /** @description Where the words of the query matched: field (`subject`, `description`, `replies`, `notes`, `documents`, `customer`; for customers `name`, `email`, `details`) → up to 3 snippets, the matched words between `<em>` and `</em>`, the rest HTML-escaped. Empty for a query of filters alone. */
            highlights: {
                [key: string]: string[];
            };
        };
        /** @description A ticket without its conversation and files: every field but `replies`, `ticketNotes` and `attachedDocuments`. The records of `GET /ticket/list?view=summary`, and the tickets of the change feed. */
        TicketSummary: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description `<sequence>/<year>`, per account and year. */
            number: string;
            subject: string;
            description: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            insertDate: number;
            /** @description Date of the last edit, reply or status change. */
            managedDate: number;
            closedDate: number | null;
            priority: 0 | 1;
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Agents in copy (an entry is null only if that agent was removed from the ticket and deleted while it was being read). */
            cc: (components["schemas"]["Agent"] | null)[];
            /** @description The customer who opened the ticket; null when that customer was erased (`POST /customer/erase/{id}`, the ticket kept anonymised), or if the ticket and then the customer were deleted while it was being read. */
            openedBy: components["schemas"]["Customer"] | null;
            numberOfReplies: number;
            tags: {
                tag: string;
            }[];
            status: components["schemas"]["Status"];
            type: components["schemas"]["TicketType"] | null;
            area: components["schemas"]["TicketArea"] | null;
            group: components["schemas"]["TicketGroup"] | null;
            memo: string | null;
            source: components["schemas"]["Source"];
            customFields: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId: string | null;
            tweetType: ("mention" | "direct message") | null;
            facebookId: string | null;
            facebookType: ("post" | "private message") | null;
            linkedinId: string | null;
            linkedinType: string | null;
            googlePlusId: string | null;
            googlePlusType: string | null;
            youtubeId: string | null;
            youtubeType: string | null;
            messageUniqueId: string | null;
            customPortalId: string | null;
            /** @description An agent has to reply. */
            toReply: boolean;
            /** @description The customer has to reply. */
            toReplyCustomer: boolean;
            /** @description The record's key in the integrator's own system (searchable). */
            externalId1: string | null;
            /** @description The ticket this one was merged into (`PUT /ticket/merge/{id}`): it is closed and takes no replies, notes or changes until unmerged. Null if none. */
            mergedInto: string | null;
            /** @description The tickets merged into this one, oldest merge first: their replies, notes and documents read as part of this ticket's conversation. */
            mergedTickets: string[];
        };
        OpenApiDocument: {
            openapi: string;
            info: {
                title: string;
                version: string;
            } & {
                [key: string]: unknown;
            };
            paths: {
                [key: string]: unknown;
            };
            components: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        Token: {
            access_token: string;
            /** @constant */
            token_type: "bearer";
            /** @description Seconds the token is valid for. */
            expires_in: number;
            scope: string;
        };
        EventFeed: {
            event: {
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description The feed is read forward only. */
                previousQuery: null;
                /**
                 * Format: uri
                 * @description Where the next events will be (with a signed cursor); poll it when a page is short.
                 */
                nextQuery: string;
                records: {
                    /** @description Unique per event. */
                    id: string;
                    /**
                     * @description `<resource>.<what happened>`.
                     * @enum {string}
                     */
                    type: "customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed";
                    /** @description Milliseconds since the Unix epoch (negative before 1970). */
                    occurredAt: number;
                    /** @description The event's place in the account's feed: what the write that made it answered as `Helpdesk-Position`, for `Helpdesk-Min-Position` on a search. */
                    position: string;
                    /** @description Opaque id generated by the service (24 lower-case hex characters). */
                    resourceId: string;
                    /** @description The import job whose write this is (`GET /import/{id}`); null for every other change. Webhooks are not sent these events: only the job's `import.completed`. */
                    importId: string | null;
                    /** @description The resource after the change (an import job for `import.completed`); null when it was deleted, or erased (`customer.erased`, and every earlier event about the erased customer or, by the erasure, their tickets). */
                    resource: (components["schemas"]["TicketSummary"] | components["schemas"]["Reply"] | components["schemas"]["Note"] | components["schemas"]["Document"] | components["schemas"]["Customer"] | components["schemas"]["Agent"] | components["schemas"]["TicketType"] | components["schemas"]["TicketArea"] | components["schemas"]["TicketGroup"] | {
                        /** @description The job's id. */
                        id: string;
                        /**
                         * @description `created`: waiting for its file (PUT it to `uploadUrl`, then start it); `running`; `completed`: every line read; `cancelled`; `failed`: its file could not be read (`reason`).
                         * @enum {string}
                         */
                        status: "created" | "running" | "completed" | "cancelled" | "failed";
                        /** @description Milliseconds since the Unix epoch (negative before 1970). */
                        createdAt: number;
                        /** @description When it was started (ms); null before. */
                        startedAt: number | null;
                        /** @description When it completed, was cancelled or failed (ms); null before. */
                        finishedAt: number | null;
                        /** @description The file's size in bytes, once started. */
                        size: number | null;
                        /** @description Bytes of the file done: every line before them applied and counted. */
                        bytesRead: number;
                        /** @description Lines of the file done. */
                        linesRead: number;
                        /** @description Per kind of line (`unreadable`: lines that were not JSON, or too long, whose kind is unknown). */
                        counts: {
                            /** @description Lines of one kind. */
                            agent: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            customer: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            ticketType: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            ticketArea: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            ticketGroup: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            ticket: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            unreadable: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                        };
                        /** @description Every kind added up. */
                        totals: {
                            /** @description Lines read: created + skipped + failed. */
                            read: number;
                            /** @description Records this job created. */
                            created: number;
                            /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                            skipped: number;
                            /** @description Lines refused, each with its problem at `errorsUrl`. */
                            failed: number;
                        };
                    }) | null;
                }[];
            };
        };
        TicketPage: {
            ticket: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: (components["schemas"]["Ticket"] | components["schemas"]["TicketSummary"])[];
            };
        };
        TicketMatchPage: {
            ticket: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TicketMatch"][];
            };
        };
        DocumentPage: {
            document: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Document"][];
            };
        };
        ReplyPage: {
            reply: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Reply"][];
            };
        };
        NotePage: {
            note: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Note"][];
            };
        };
        HistoryEntryPage: {
            history: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["HistoryEntry"][];
            };
        };
        Id: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
        };
        TrashedTicketPage: {
            ticket: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TrashedTicket"][];
            };
        };
        BulkResults: {
            results: {
                /** @description What its own route would have answered: 201 or 200, or the status of its problem. */
                status: number;
                /** @description Its route's body: the record's id, or the problem. */
                body: components["schemas"]["Id"] | {
                    /** @description Stable URN to branch on (docs/errors.md). */
                    type: string;
                    title: string;
                    status: number;
                    detail: string;
                    errors?: components["schemas"]["FieldError"][];
                    /** @description The path of the route the operation ran as. */
                    instance: string;
                };
                /**
                 * @description Its Idempotency-Key found an earlier answer: nothing was written now.
                 * @constant
                 */
                replayed?: true;
                /** @description Its change's place in the change feed (what its route answers as `Helpdesk-Position`); the call's `Helpdesk-Position` is the latest of them. */
                position?: string;
            }[];
        };
        Redirect: {
            /**
             * Format: uri
             * @description The short-lived download address (as in `Location`).
             */
            url: string;
            /** @description Seconds the address is valid for. */
            expiresIn: number;
        };
        Upload: {
            /** @description Send it as `uploadId` in `attachedDocuments`. */
            uploadId: string;
            /**
             * Format: uri
             * @description PUT the bytes here.
             */
            uploadUrl: string;
            /** @constant */
            method: "PUT";
            /** @description Headers the PUT must carry. */
            headers: {
                "content-type": string;
            };
            /** @description Seconds the address is valid for. */
            expiresIn: number;
            maxBytes: number;
        };
        CustomerPage: {
            customer: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Customer"][];
            };
        };
        CustomerMatchPage: {
            customer: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["CustomerMatch"][];
            };
        };
        AgentPage: {
            agent: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Agent"][];
            };
        };
        TicketTypePage: {
            type: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TicketType"][];
            };
        };
        TicketAreaPage: {
            area: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TicketArea"][];
            };
        };
        TicketGroupPage: {
            group: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TicketGroup"][];
            };
        };
        WebhookPage: {
            webhook: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Webhook"][];
            };
        };
        WebhookSecret: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description Signing secret in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes); verify deliveries with it. Returned only here: keep it. */
            secret: string;
        };
        WebhookDeliveryPage: {
            delivery: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["WebhookDelivery"][];
            };
        };
        ImportErrorPage: {
            error: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["ImportError"][];
            };
        };
        Problem400: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:validation-error" | "urn:helpdesk:problem:malformed-json" | "urn:helpdesk:problem:bad-request" | "urn:helpdesk:problem:invalid-reference" | "urn:helpdesk:problem:line-too-long";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 400;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem401: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:unauthorized";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 401;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem404: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:not-found" | "urn:helpdesk:problem:no-route";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 404;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem409: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:duplicate-email" | "urn:helpdesk:problem:duplicate-type" | "urn:helpdesk:problem:duplicate-area" | "urn:helpdesk:problem:duplicate-group" | "urn:helpdesk:problem:in-use" | "urn:helpdesk:problem:reference-gone" | "urn:helpdesk:problem:ticket-merged" | "urn:helpdesk:problem:already-merged" | "urn:helpdesk:problem:merge-chain" | "urn:helpdesk:problem:merge-limit" | "urn:helpdesk:problem:merge-target-gone" | "urn:helpdesk:problem:unmerge-expired" | "urn:helpdesk:problem:request-in-progress" | "urn:helpdesk:problem:webhook-limit" | "urn:helpdesk:problem:import-file-missing" | "urn:helpdesk:problem:import-finished" | "urn:helpdesk:problem:import-moved";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 409;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem410: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:cursor-expired";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 410;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem412: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:precondition-failed";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 412;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem413: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:content-too-large" | "urn:helpdesk:problem:too-many-changes";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 413;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem415: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:unsupported-media-type";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 415;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem422: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:idempotency-key-reused";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 422;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem429: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:rate-limited";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 429;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem500: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:internal-error";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 500;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem503: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:contended" | "urn:helpdesk:problem:index-behind" | "urn:helpdesk:problem:unavailable";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 503;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem504: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:outcome-unknown";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 504;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Reference: {
            id: string;
        };
        DocumentInput: {
            documentName: string;
            documentType: string;
            documentBlob?: string;
            documentBase64?: string;
            uploadId?: string;
        };
        ReplyInput: {
            text: string;
            /** @description Milliseconds since the epoch, as an integer or a string of digits. */
            replyDate?: number | string;
            replyFromOperator?: components["schemas"]["Reference"] | null;
            attachedDocuments?: components["schemas"]["DocumentInput"][];
        };
        NoteInput: {
            note: string;
            insertBy?: string | null;
            assignedTo?: string | null;
            /** @description Milliseconds since the epoch, as an integer or a string of digits. */
            date?: number | string;
            remindMe?: (number | string) | null;
        };
        TicketInsertBody: {
            subject: string;
            description: string;
            openedBy: components["schemas"]["Reference"];
            type?: components["schemas"]["Reference"] | null;
            area?: components["schemas"]["Reference"] | null;
            group?: components["schemas"]["Reference"] | null;
            assignedTo?: components["schemas"]["Reference"] | null;
            cc?: components["schemas"]["Reference"][];
            priority?: 0 | 1;
            /** @description One of opened, on hold, solved, closed (`onhold` reads as `on hold`), case-insensitive: "opened" or {"status": "opened"}. */
            status?: string | {
                status: string;
            };
            /** @description One of web, email, phone, chat, api, twitter, facebook, linkedin, googleplus, youtube, case-insensitive: "web" or {"source": "web"}. */
            source?: string | {
                source: string;
            };
            tags?: (string | {
                tag: string;
            })[];
            memo?: string | null;
            customFields?: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId?: string | null;
            tweetType?: ("mention" | "direct message") | null;
            facebookId?: string | null;
            facebookType?: ("post" | "private message") | null;
            linkedinId?: string | null;
            linkedinType?: string | null;
            googlePlusId?: string | null;
            googlePlusType?: string | null;
            youtubeId?: string | null;
            youtubeType?: string | null;
            messageUniqueId?: string | null;
            customPortalId?: string | null;
            externalId1?: string | null;
            toReply?: boolean;
            toReplyCustomer?: boolean;
            replies?: components["schemas"]["ReplyInput"][];
            attachedDocuments?: components["schemas"]["DocumentInput"][];
        };
        TicketUpdateBody: {
            subject?: string;
            description?: string;
            openedBy?: components["schemas"]["Reference"];
            type?: components["schemas"]["Reference"] | null;
            area?: components["schemas"]["Reference"] | null;
            group?: components["schemas"]["Reference"] | null;
            assignedTo?: components["schemas"]["Reference"] | null;
            cc?: components["schemas"]["Reference"][];
            priority?: 0 | 1;
            /** @description One of opened, on hold, solved, closed (`onhold` reads as `on hold`), case-insensitive: "opened" or {"status": "opened"}. */
            status?: string | {
                status: string;
            };
            /** @description One of web, email, phone, chat, api, twitter, facebook, linkedin, googleplus, youtube, case-insensitive: "web" or {"source": "web"}. */
            source?: string | {
                source: string;
            };
            tags?: (string | {
                tag: string;
            })[];
            memo?: string | null;
            customFields?: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId?: string | null;
            tweetType?: ("mention" | "direct message") | null;
            facebookId?: string | null;
            facebookType?: ("post" | "private message") | null;
            linkedinId?: string | null;
            linkedinType?: string | null;
            googlePlusId?: string | null;
            googlePlusType?: string | null;
            youtubeId?: string | null;
            youtubeType?: string | null;
            messageUniqueId?: string | null;
            customPortalId?: string | null;
            externalId1?: string | null;
            toReply?: boolean;
            toReplyCustomer?: boolean;
            replies?: components["schemas"]["ReplyInput"][];
            attachedDocuments?: components["schemas"]["DocumentInput"][];
        };
        TicketMergeBody: {
            sources: string[];
        };
        TicketBulkBody: {
            operations: ({
                /** @constant */
                op: "insert";
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                body?: components["schemas"]["TicketInsertBody"];
            } | {
                /** @constant */
                op: "update";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
                body?: components["schemas"]["TicketUpdateBody"];
            } | {
                /** @constant */
                op: "delete";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
            } | {
                /** @constant */
                op: "reply";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
                body?: components["schemas"]["ReplyInput"];
            } | {
                /** @constant */
                op: "addNote";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
                body?: components["schemas"]["NoteInput"];
            })[];
        };
        TicketAttachmentUploadBody: {
            documentName: string;
            documentType: string;
        };
        CustomerInsertBody: {
            name: string;
            /** Format: email */
            email: string;
            birthDate?: number | null;
            phoneNumber?: string | null;
            faxNumber?: string | null;
            mobileNumber?: string | null;
            address?: string | null;
            city?: string | null;
            province?: string | null;
            state?: string | null;
            postalNumber?: string | null;
            skypeAddress?: string | null;
            msnAddress?: string | null;
            gtalkAddress?: string | null;
            twitterAccountUrl?: string | null;
            facebookAccountUrl?: string | null;
            linkedinAccountUrl?: string | null;
            googleAccountUrl?: string | null;
            youtubeAccountUrl?: string | null;
            registrationChannel?: string | null;
            topClient?: boolean;
            profilePhotoBlob?: string | null;
            signature?: string | null;
            memo?: string | null;
            website?: string | null;
            company?: string | null;
            /** @enum {string} */
            language?: "en" | "it" | "es" | "fr";
            account?: {
                username?: string | null;
                password?: string;
            } | null;
            insertByAgentId?: string | null;
            customFields?: {
                [key: string]: string | number | boolean | null;
            } | null;
        };
        CustomerUpdateBody: {
            name?: string;
            /** Format: email */
            email?: string;
            birthDate?: number | null;
            phoneNumber?: string | null;
            faxNumber?: string | null;
            mobileNumber?: string | null;
            address?: string | null;
            city?: string | null;
            province?: string | null;
            state?: string | null;
            postalNumber?: string | null;
            skypeAddress?: string | null;
            msnAddress?: string | null;
            gtalkAddress?: string | null;
            twitterAccountUrl?: string | null;
            facebookAccountUrl?: string | null;
            linkedinAccountUrl?: string | null;
            googleAccountUrl?: string | null;
            youtubeAccountUrl?: string | null;
            registrationChannel?: string | null;
            topClient?: boolean;
            profilePhotoBlob?: string | null;
            signature?: string | null;
            memo?: string | null;
            website?: string | null;
            company?: string | null;
            /** @enum {string} */
            language?: "en" | "it" | "es" | "fr";
            account?: {
                username?: string | null;
                password?: string;
            } | null;
            insertByAgentId?: string | null;
            customFields?: {
                [key: string]: string | number | boolean | null;
            } | null;
        };
        CustomerBulkBody: {
            operations: ({
                /** @constant */
                op: "insert";
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                body?: components["schemas"]["CustomerInsertBody"];
            } | {
                /** @constant */
                op: "update";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
                body?: components["schemas"]["CustomerUpdateBody"];
            } | {
                /** @constant */
                op: "delete";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
            })[];
        };
        CustomerEraseBody: {
            /**
             * @default anonymise
             * @enum {string}
             */
            mode: "anonymise" | "delete";
            /** @default false */
            dryRun: boolean;
        };
        AgentInsertBody: {
            name: string;
            /** Format: email */
            email: string;
            phoneNumber?: string | null;
            /** @enum {string} */
            language?: "en" | "it" | "es" | "fr";
            signature?: string | null;
        };
        AgentUpdateBody: {
            name?: string;
            /** Format: email */
            email?: string;
            phoneNumber?: string | null;
            /** @enum {string} */
            language?: "en" | "it" | "es" | "fr";
            signature?: string | null;
        };
        TicketTypeInsertBody: {
            type: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketTypeUpdateBody: {
            type?: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketAreaInsertBody: {
            area: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketAreaUpdateBody: {
            area?: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketGroupInsertBody: {
            group: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketGroupUpdateBody: {
            group?: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        WebhookInsertBody: {
            /** Format: uri */
            url: string;
            /** @description Event types delivered (those of GET /event/list); empty or absent: all of them. */
            types?: ("customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed")[];
            /** @description Deliveries run (default true); `true` re-enables one disabled after failures. */
            enabled?: boolean;
            description?: string | null;
        };
        WebhookUpdateBody: {
            /** Format: uri */
            url?: string;
            /** @description Event types delivered (those of GET /event/list); empty or absent: all of them. */
            types?: ("customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed")[];
            /** @description Deliveries run (default true); `true` re-enables one disabled after failures. */
            enabled?: boolean;
            description?: string | null;
        };
    };
    responses: {
        /** @description Bad Request: The request is invalid: malformed JSON, an invalid body (`errors` lists each field), a bad query or path parameter, a reference to a record that does not exist. */
        Problem400: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem400"];
            };
        };
        /** @description Unauthorized: Missing, invalid, expired or revoked credentials; the same answer whatever was wrong. */
        Problem401: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem401"];
            };
        };
        /** @description Not Found: No such record in this account (an unknown, foreign or malformed id). */
        Problem404: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem404"];
            };
        };
        /** @description Conflict: The write contradicts the data (a duplicate e-mail or name, a record still in use), or a request with the same Idempotency-Key is still running. */
        Problem409: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem409"];
            };
        };
        /** @description 410: see docs/errors.md */
        Problem410: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem410"];
            };
        };
        /** @description Precondition Failed: `If-Match` names no version the record has; nothing changed. */
        Problem412: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem412"];
            };
        };
        /** @description Content Too Large: The body, a file or the write is over a limit; nothing written. */
        Problem413: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem413"];
            };
        };
        /** @description Unsupported Media Type: The body is not `application/json`. */
        Problem415: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem415"];
            };
        };
        /** @description Unprocessable Content: The Idempotency-Key was already used for a different request. */
        Problem422: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem422"];
            };
        };
        /** @description Too Many Requests: Over a rate limit (requests, failed authentications, token exchanges); retry after `Retry-After`. */
        Problem429: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem429"];
            };
        };
        /** @description Internal Server Error: A bug; the `x-request-id` finds it in the logs. */
        Problem500: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem500"];
            };
        };
        /** @description Service Unavailable: The store is unavailable or the record too busy; nothing was written. Retry after `Retry-After`. */
        Problem503: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem503"];
            };
        };
        /** @description Gateway Timeout: A write was sent and the store did not answer in time: it may or may not have been applied. Retry with the same Idempotency-Key, or read the record. */
        Problem504: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem504"];
            };
        };
    };
    parameters: {
        /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
        IdempotencyKey: string;
        /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
        IfMatch: string;
        /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
        HelpdeskCompat: "standard" | "deskero";
        /** @description Read your writes: the `Helpdesk-Position` a write answered. The search waits (up to 5 s) until the index has applied that change and every earlier one of the account, then answers; past the wait, 503 `index-behind` with Retry-After. Without it, the search answers at once from what is indexed. */
        HelpdeskMinPosition: string;
    };
    requestBodies: never;
    headers: {
        /** @description Id of this request (API Gateway request id), also in the logs: quote it when reporting a problem. */
        XRequestId: string;
        /** @description Requests this client may send in the current minute's window. */
        RateLimitLimit: number;
        /** @description Requests left in the current window (this instance's view: exact with one instance). */
        RateLimitRemaining: number;
        /** @description Seconds until the next window opens. */
        RateLimitReset: number;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
        /** @description The scheme to authenticate with: `Bearer realm="helpdesk"` (`Basic` on /oauth/token). */
        WWWAuthenticate: string;
        /** @description Strong entity-tag of the version read; send it back as `If-Match` to update or delete only that version. */
        ETag: string;
        /** @description The absolute address the created resource is read at (for an upload: the address to PUT the file to). */
        CreatedLocation: string;
        /** @description Strong entity-tag of the version the write created (`"1"`): send it as `If-Match` to update or delete only that version, without reading first. */
        CreatedETag: "\"1\"";
        /** @description Strong entity-tag of the version this write gave the record in the path (for a reply or note: the ticket), sent when the server knows it exactly: always after a merge or unmerge, and after an update, reply or note sent with `If-Match` (naming one version, for a reply or note, which does not read the ticket). Send it as the next write’s `If-Match` without reading first. An unconditional write has none: a concurrent change of other fields may land beside it, so its version is not known without a read. */
        WrittenETag: string;
        /** @description The short-lived download address. */
        Location: string;
        /** @description How long the answer may be kept. */
        CacheControl: string;
        /** @description The file's version (a hash of its bytes): send it back in `If-None-Match` for a 304. */
        FileETag: string;
        /** @description Always `nosniff`. */
        XContentTypeOptions: "nosniff";
        /** @description A stored file loads nothing, runs nothing and is framed nowhere, even opened as a page (docs/decisions.md, Customers). */
        FileContentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'; sandbox";
        /** @description Other sites' pages cannot embed the file. */
        CrossOriginResourcePolicy: "same-origin";
        /** @description `inline`, the file's name quoted in ASCII (other characters as `_`) and exactly in `filename*` (RFC 6266, RFC 5987). */
        ContentDisposition: string;
        /** @description Always `no-referrer`. */
        ReferrerPolicy: string;
        /** @description The page's policy: its own origin only (docs/decisions.md, Docs). */
        ContentSecurityPolicy: string;
        /** @description What the answer varies by (`accept-encoding`). */
        Vary: string;
        /** @description `gzip` when the client accepts it. */
        ContentEncoding: "gzip";
        /** @description HTTP/1.0 `no-cache`, as RFC 6749 asks of token responses. */
        Pragma: "no-cache";
        /** @description Present (`true`) when this is the stored answer of an earlier request with the same Idempotency-Key. */
        IdempotentReplayed: "true";
        /** @description The change's place in the account's change feed (also each event's `position`): send it as `Helpdesk-Min-Position` to search once the change is indexed. Present when the write changed the account's data. */
        HelpdeskPosition: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    ETag: components["headers"]["FileETag"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description No content. */
            304: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    ETag: components["headers"]["FileETag"];
                    Vary: components["headers"]["Vary"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            500: components["responses"]["Problem500"];
        };
    };
    oauthToken: {
        parameters: {
            query: {
                /**
                 * @description Must be `client_credentials`.
                 * @example client_credentials
                 */
                grant_type: "client_credentials";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    Pragma: components["headers"]["Pragma"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "-LsKOTm7zpR1aJOJbfIgkIgmeeVvR1B5MEbvai8qQbI",
                     *       "token_type": "bearer",
                     *       "expires_in": 3600,
                     *       "scope": "read write"
                     *     }
                     */
                    "application/json": components["schemas"]["Token"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    eventList: {
        parameters: {
            query?: {
                /**
                 * @description Page number, from 1 (default 1). A page past the end has no records.
                 * @example 2
                 */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Events committed at or after this instant (milliseconds since the epoch); a `cursor` takes precedence. */
                since?: number;
                /** @description Only events of these types, comma-separated (e.g. `ticket.created,ticket.replied`). */
                type?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "event": {
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": "http://localhost/event/list?page=3&cursor=eyJ0IjoiMDFhMjFiMGZlNTI2NDMwMTIwMmU4ODhkIiwiciI6IkVWRU5UIiwiZiI6IiIsInAiOjMsImQiOiJuIiwiayI6WyIwOTAwODk5NTAwNTA5NzQ3NiIsIlQjMDFhMjFiMGZlNTI2NDMwMTIwMmU4ODhkI0VWRU5UUyIsIjA5MDA4OTk1MDA1MDk3NDc2Il0sImtpZCI6ImxlZ2FjeSJ9.HyZ38Y1FJVbOCuAaoDq87jhKzvXz4wj3m8sq7KaLcws",
                     *         "records": [
                     *           {
                     *             "id": "01a21b0fe5c9ed38e94ba1d9",
                     *             "type": "customer.created",
                     *             "occurredAt": 1795750356425,
                     *             "position": "09008995005097417#01a21b0fe5c9ed38e94ba1d9",
                     *             "resourceId": "01a21b0fe5c97eaa72cfcba9",
                     *             "importId": null,
                     *             "resource": {
                     *               "id": "01a21b0fe5c97eaa72cfcba9",
                     *               "name": "Ada",
                     *               "birthDate": null,
                     *               "email": "ada@example.com",
                     *               "phoneNumber": null,
                     *               "faxNumber": null,
                     *               "mobileNumber": null,
                     *               "address": null,
                     *               "city": null,
                     *               "province": null,
                     *               "state": null,
                     *               "postalNumber": null,
                     *               "skypeAddress": null,
                     *               "msnAddress": null,
                     *               "gtalkAddress": null,
                     *               "twitterAccountUrl": null,
                     *               "facebookAccountUrl": null,
                     *               "linkedinAccountUrl": null,
                     *               "googleAccountUrl": null,
                     *               "youtubeAccountUrl": null,
                     *               "registrationChannel": null,
                     *               "topClient": false,
                     *               "profilePhotoUrl": "http://localhost/customer/photo/01a21b0fe5c97eaa72cfcba9",
                     *               "profilePhotoBlob": null,
                     *               "signature": null,
                     *               "memo": null,
                     *               "website": null,
                     *               "company": null,
                     *               "language": "en",
                     *               "account": null,
                     *               "insertByAgentId": null,
                     *               "customFields": null
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["EventFeed"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            410: components["responses"]["Problem410"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /**
                 * @description What each record is: `detail` (the default) the ticket as `GET /ticket/{id}` answers it, conversation and files included (with its truncation flags); `summary` every field but `replies`, `ticketNotes` and `attachedDocuments`, at two DynamoDB requests a page. Page links keep it.
                 * @example summary
                 */
                view?: "detail" | "summary";
                /** @description Exact-match search by `status` (one search field at a time; unknown parameters are a 400). */
                status?: "opened" | "on hold" | "solved" | "closed";
                /** @description Exact-match search by `priority` (one search field at a time; unknown parameters are a 400). */
                priority?: 0 | 1;
                /** @description Exact-match search by `openedBy._id` (one search field at a time; unknown parameters are a 400). */
                "openedBy._id"?: string;
                /** @description Exact-match search by `assignedTo._id` (one search field at a time; unknown parameters are a 400). */
                "assignedTo._id"?: string;
                /** @description Exact-match search by `type._id` (one search field at a time; unknown parameters are a 400). */
                "type._id"?: string;
                /** @description Exact-match search by `area._id` (one search field at a time; unknown parameters are a 400). */
                "area._id"?: string;
                /** @description Exact-match search by `group._id` (one search field at a time; unknown parameters are a 400). */
                "group._id"?: string;
                /** @description Exact-match search by `externalId1` (one search field at a time; unknown parameters are a 400). */
                externalId1?: string;
                /** @description Exact-match search by `tags` (one search field at a time; unknown parameters are a 400). */
                tags?: string;
                /** @description Tickets changed at or after this instant (milliseconds since the epoch), most recently changed first: incremental sync. Not with another search field. */
                managedDate?: number;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ticket": {
                     *         "totalRecords": 1,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0d6b241b447dcc30d5",
                     *             "number": "1/2026",
                     *             "subject": "s",
                     *             "description": "d",
                     *             "insertDate": 1795750193956,
                     *             "managedDate": 1795750193956,
                     *             "closedDate": null,
                     *             "priority": 0,
                     *             "assignedTo": null,
                     *             "cc": [],
                     *             "openedBy": {
                     *               "id": "01a21b0d6b0f8a996ff40bc9",
                     *               "name": "Ada",
                     *               "birthDate": null,
                     *               "email": "ada@example.com",
                     *               "phoneNumber": null,
                     *               "faxNumber": null,
                     *               "mobileNumber": null,
                     *               "address": null,
                     *               "city": null,
                     *               "province": null,
                     *               "state": null,
                     *               "postalNumber": null,
                     *               "skypeAddress": null,
                     *               "msnAddress": null,
                     *               "gtalkAddress": null,
                     *               "twitterAccountUrl": null,
                     *               "facebookAccountUrl": null,
                     *               "linkedinAccountUrl": null,
                     *               "googleAccountUrl": null,
                     *               "youtubeAccountUrl": null,
                     *               "registrationChannel": null,
                     *               "topClient": false,
                     *               "profilePhotoUrl": "http://localhost/customer/photo/01a21b0d6b0f8a996ff40bc9",
                     *               "profilePhotoBlob": null,
                     *               "signature": null,
                     *               "memo": null,
                     *               "website": null,
                     *               "company": null,
                     *               "language": "en",
                     *               "account": null,
                     *               "insertByAgentId": null,
                     *               "customFields": null
                     *             },
                     *             "numberOfReplies": 0,
                     *             "tags": [],
                     *             "status": {
                     *               "status": "opened",
                     *               "labels": {
                     *                 "en": "Opened",
                     *                 "it": "Aperto",
                     *                 "es": "Abierto",
                     *                 "fr": "Ouvert"
                     *               }
                     *             },
                     *             "type": null,
                     *             "area": null,
                     *             "group": null,
                     *             "memo": null,
                     *             "source": {
                     *               "source": "web",
                     *               "labels": {
                     *                 "en": "Web",
                     *                 "it": "Web",
                     *                 "es": "Web",
                     *                 "fr": "Web"
                     *               }
                     *             },
                     *             "customFields": [],
                     *             "tweetId": null,
                     *             "tweetType": null,
                     *             "facebookId": null,
                     *             "facebookType": null,
                     *             "linkedinId": null,
                     *             "linkedinType": null,
                     *             "googlePlusId": null,
                     *             "googlePlusType": null,
                     *             "youtubeId": null,
                     *             "youtubeType": null,
                     *             "messageUniqueId": null,
                     *             "customPortalId": null,
                     *             "toReply": true,
                     *             "toReplyCustomer": false,
                     *             "externalId1": null,
                     *             "mergedInto": null,
                     *             "mergedTickets": []
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TicketPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketSearch: {
        parameters: {
            query: {
                /**
                 * @description Exact-match search by `query` (one search field at a time; unknown parameters are a 400).
                 * @example toner
                 */
                query: string;
                /** @description Exact-match search by `sort` (one search field at a time; unknown parameters are a 400). */
                sort?: "relevance" | "created" | "updated";
                /** @description Exact-match search by `order` (one search field at a time; unknown parameters are a 400). */
                order?: "asc" | "desc";
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
                /** @description Read your writes: the `Helpdesk-Position` a write answered. The search waits (up to 5 s) until the index has applied that change and every earlier one of the account, then answers; past the wait, 503 `index-behind` with Retry-After. Without it, the search answers at once from what is indexed. */
                "Helpdesk-Min-Position"?: components["parameters"]["HelpdeskMinPosition"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ticket": {
                     *         "totalRecords": 1,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0c8194141ce3b86f56",
                     *             "number": "1/2026",
                     *             "subject": "Scanner jam",
                     *             "description": "d",
                     *             "insertDate": 1795750134164,
                     *             "managedDate": 1795750134585,
                     *             "closedDate": null,
                     *             "priority": 0,
                     *             "assignedTo": null,
                     *             "cc": [],
                     *             "openedBy": {
                     *               "id": "01a21b0c81762b3440c4c262",
                     *               "name": "Ana",
                     *               "birthDate": null,
                     *               "email": "ana@example.com",
                     *               "phoneNumber": null,
                     *               "faxNumber": null,
                     *               "mobileNumber": null,
                     *               "address": null,
                     *               "city": null,
                     *               "province": null,
                     *               "state": null,
                     *               "postalNumber": null,
                     *               "skypeAddress": null,
                     *               "msnAddress": null,
                     *               "gtalkAddress": null,
                     *               "twitterAccountUrl": null,
                     *               "facebookAccountUrl": null,
                     *               "linkedinAccountUrl": null,
                     *               "googleAccountUrl": null,
                     *               "youtubeAccountUrl": null,
                     *               "registrationChannel": null,
                     *               "topClient": false,
                     *               "profilePhotoUrl": "http://localhost/customer/photo/01a21b0c81762b3440c4c262",
                     *               "profilePhotoBlob": null,
                     *               "signature": null,
                     *               "memo": null,
                     *               "website": null,
                     *               "company": null,
                     *               "language": "en",
                     *               "account": null,
                     *               "insertByAgentId": null,
                     *               "customFields": null
                     *             },
                     *             "numberOfReplies": 1,
                     *             "replies": [
                     *               {
                     *                 "id": "01a21b0c83394bfb0f824b1b",
                     *                 "text": "Try the toner",
                     *                 "replyDate": 1795750134585,
                     *                 "replyFromOperator": null,
                     *                 "attachedDocuments": []
                     *               }
                     *             ],
                     *             "tags": [],
                     *             "attachedDocuments": [],
                     *             "status": {
                     *               "status": "opened",
                     *               "labels": {
                     *                 "en": "Opened",
                     *                 "it": "Aperto",
                     *                 "es": "Abierto",
                     *                 "fr": "Ouvert"
                     *               }
                     *             },
                     *             "type": null,
                     *             "area": null,
                     *             "group": null,
                     *             "memo": null,
                     *             "source": {
                     *               "source": "web",
                     *               "labels": {
                     *                 "en": "Web",
                     *                 "it": "Web",
                     *                 "es": "Web",
                     *                 "fr": "Web"
                     *               }
                     *             },
                     *             "customFields": [],
                     *             "ticketNotes": [],
                     *             "tweetId": null,
                     *             "tweetType": null,
                     *             "facebookId": null,
                     *             "facebookType": null,
                     *             "linkedinId": null,
                     *             "linkedinType": null,
                     *             "googlePlusId": null,
                     *             "googlePlusType": null,
                     *             "youtubeId": null,
                     *             "youtubeType": null,
                     *             "messageUniqueId": null,
                     *             "customPortalId": null,
                     *             "toReply": true,
                     *             "toReplyCustomer": false,
                     *             "externalId1": null,
                     *             "mergedInto": null,
                     *             "mergedTickets": [],
                     *             "documentsTruncated": false,
                     *             "documentsUrl": "http://localhost/ticket/01a21b0c8194141ce3b86f56/documents",
                     *             "repliesTruncated": false,
                     *             "repliesUrl": "http://localhost/ticket/01a21b0c8194141ce3b86f56/replies",
                     *             "notesTruncated": false,
                     *             "notesUrl": "http://localhost/ticket/01a21b0c8194141ce3b86f56/notes",
                     *             "highlights": {
                     *               "replies": [
                     *                 "<em>toner</em>"
                     *               ]
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TicketMatchPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b101f9b22aa309bacbd",
                     *       "number": "1/2026",
                     *       "subject": "s",
                     *       "description": "d",
                     *       "insertDate": 1795750371227,
                     *       "managedDate": 1795750371276,
                     *       "closedDate": null,
                     *       "priority": 0,
                     *       "assignedTo": null,
                     *       "cc": [],
                     *       "openedBy": {
                     *         "id": "01a21b101f5b2ac802ff869f",
                     *         "name": "Ada",
                     *         "birthDate": null,
                     *         "email": "ada@example.com",
                     *         "phoneNumber": null,
                     *         "faxNumber": null,
                     *         "mobileNumber": null,
                     *         "address": null,
                     *         "city": null,
                     *         "province": null,
                     *         "state": null,
                     *         "postalNumber": null,
                     *         "skypeAddress": null,
                     *         "msnAddress": null,
                     *         "gtalkAddress": null,
                     *         "twitterAccountUrl": null,
                     *         "facebookAccountUrl": null,
                     *         "linkedinAccountUrl": null,
                     *         "googleAccountUrl": null,
                     *         "youtubeAccountUrl": null,
                     *         "registrationChannel": null,
                     *         "topClient": false,
                     *         "profilePhotoUrl": "http://localhost/customer/photo/01a21b101f5b2ac802ff869f",
                     *         "profilePhotoBlob": null,
                     *         "signature": null,
                     *         "memo": null,
                     *         "website": null,
                     *         "company": "x",
                     *         "language": "en",
                     *         "account": null,
                     *         "insertByAgentId": null,
                     *         "customFields": null
                     *       },
                     *       "numberOfReplies": 1,
                     *       "replies": [
                     *         {
                     *           "id": "01a21b101fccff774bb8f785",
                     *           "text": "r",
                     *           "replyDate": 1795750371276,
                     *           "replyFromOperator": null,
                     *           "attachedDocuments": []
                     *         }
                     *       ],
                     *       "tags": [],
                     *       "attachedDocuments": [],
                     *       "status": {
                     *         "status": "opened",
                     *         "labels": {
                     *           "en": "Opened",
                     *           "it": "Aperto",
                     *           "es": "Abierto",
                     *           "fr": "Ouvert"
                     *         }
                     *       },
                     *       "type": null,
                     *       "area": null,
                     *       "group": null,
                     *       "memo": null,
                     *       "source": {
                     *         "source": "web",
                     *         "labels": {
                     *           "en": "Web",
                     *           "it": "Web",
                     *           "es": "Web",
                     *           "fr": "Web"
                     *         }
                     *       },
                     *       "customFields": [],
                     *       "ticketNotes": [],
                     *       "tweetId": null,
                     *       "tweetType": null,
                     *       "facebookId": null,
                     *       "facebookType": null,
                     *       "linkedinId": null,
                     *       "linkedinType": null,
                     *       "googlePlusId": null,
                     *       "googlePlusType": null,
                     *       "youtubeId": null,
                     *       "youtubeType": null,
                     *       "messageUniqueId": null,
                     *       "customPortalId": null,
                     *       "toReply": true,
                     *       "toReplyCustomer": false,
                     *       "externalId1": null,
                     *       "mergedInto": null,
                     *       "mergedTickets": [],
                     *       "documentsTruncated": false,
                     *       "documentsUrl": "http://localhost/ticket/01a21b101f9b22aa309bacbd/documents",
                     *       "repliesTruncated": false,
                     *       "repliesUrl": "http://localhost/ticket/01a21b101f9b22aa309bacbd/replies",
                     *       "notesTruncated": false,
                     *       "notesUrl": "http://localhost/ticket/01a21b101f9b22aa309bacbd/notes"
                     *     }
                     */
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketDocuments: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "document": {
                     *         "totalRecords": 1,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0d3bfd6d2ce422ba28",
                     *             "documentName": "one.txt",
                     *             "documentType": "text/plain",
                     *             "size": 5,
                     *             "checksum": "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
                     *             "downloadUrl": "http://localhost/ticket/01a21b0d3bfa3ad3abcc006d/attachment/01a21b0d3bfd6d2ce422ba28"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketReplies: {
        parameters: {
            query?: {
                /**
                 * @description Page number, from 1 (default 1). A page past the end has no records.
                 * @example 2
                 */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "reply": {
                     *         "totalRecords": 33,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": "http://localhost/ticket/01a21b0d3ac7c536b50e0746/replies?page=1",
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0d3bfa935834c927fa",
                     *             "text": "at 31",
                     *             "replyDate": 1767337200000,
                     *             "replyFromOperator": null,
                     *             "attachedDocuments": []
                     *           },
                     *           {
                     *             "id": "01a21b0d3ac7572e1024ae2b",
                     *             "text": "at 33",
                     *             "replyDate": 1767344400000,
                     *             "replyFromOperator": null,
                     *             "attachedDocuments": []
                     *           },
                     *           {
                     *             "id": "01a21b0d3bfab69ad1a2a03e",
                     *             "text": "at 34",
                     *             "replyDate": 1767348000000,
                     *             "replyFromOperator": null,
                     *             "attachedDocuments": []
                     *           },
                     *           {
                     *             "id": "01a21b0d3ac708025b472935",
                     *             "text": "at 36",
                     *             "replyDate": 1767355200000,
                     *             "replyFromOperator": null,
                     *             "attachedDocuments": []
                     *           },
                     *           {
                     *             "id": "01a21b0d3ac72c2627123965",
                     *             "text": "at 39",
                     *             "replyDate": 1767366000000,
                     *             "replyFromOperator": null,
                     *             "attachedDocuments": []
                     *           },
                     *           {
                     *             "id": "01a21b0d3ac75281d41f2610",
                     *             "text": "at 42",
                     *             "replyDate": 1767376800000,
                     *             "replyFromOperator": null,
                     *             "attachedDocuments": []
                     *           },
                     *           {
                     *             "id": "01a21b0d3ac79659ba8f431b",
                     *             "text": "at 45",
                     *             "replyDate": 1767387600000,
                     *             "replyFromOperator": null,
                     *             "attachedDocuments": []
                     *           },
                     *           {
                     *             "id": "01a21b0d3e10551f3c19b30a",
                     *             "text": "latest",
                     *             "replyDate": 1795750182416,
                     *             "replyFromOperator": null,
                     *             "attachedDocuments": [
                     *               {
                     *                 "id": "01a21b0d3e10869a6c7ee47f",
                     *                 "documentName": "two.txt",
                     *                 "documentType": "text/plain",
                     *                 "size": 5,
                     *                 "checksum": "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
                     *                 "downloadUrl": "http://localhost/ticket/01a21b0d3d230316ba98b9e1/attachment/01a21b0d3e10869a6c7ee47f"
                     *               }
                     *             ]
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ReplyPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketNotes: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "note": {
                     *         "totalRecords": 4,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b09c59d09f1a60d4c2c",
                     *             "note": "n",
                     *             "insertBy": {
                     *               "id": "01a21b09c53e65a131c4a188",
                     *               "name": "Agent",
                     *               "email": "agent@example.com",
                     *               "phoneNumber": null,
                     *               "language": "en",
                     *               "signature": null
                     *             },
                     *             "assignedTo": {
                     *               "id": "01a21b09c53e65a131c4a188",
                     *               "name": "Agent",
                     *               "email": "agent@example.com",
                     *               "phoneNumber": null,
                     *               "language": "en",
                     *               "signature": null
                     *             },
                     *             "date": 1795749954973,
                     *             "remindMe": null
                     *           },
                     *           {
                     *             "id": "01a21b09c5b12d20eeeaf93c",
                     *             "note": "n0",
                     *             "insertBy": null,
                     *             "assignedTo": null,
                     *             "date": 1795749954993,
                     *             "remindMe": null
                     *           },
                     *           {
                     *             "id": "01a21b09c5cb707cf7718490",
                     *             "note": "n1",
                     *             "insertBy": null,
                     *             "assignedTo": null,
                     *             "date": 1795749955019,
                     *             "remindMe": null
                     *           },
                     *           {
                     *             "id": "01a21b09c5e5ad7b588eee35",
                     *             "note": "n2",
                     *             "insertBy": null,
                     *             "assignedTo": null,
                     *             "date": 1795749955045,
                     *             "remindMe": null
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["NotePage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketHistory: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "history": {
                     *         "totalRecords": 5,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0effa744abe89aa427",
                     *             "at": 1795750297511,
                     *             "kind": "created",
                     *             "actor": {
                     *               "clientId": "01a21b0efef611cb46690fc1",
                     *               "agentId": null,
                     *               "requestId": "K2J8QHTyCRfV9W4=",
                     *               "importId": null
                     *             },
                     *             "changes": [],
                     *             "replies": [],
                     *             "notes": [],
                     *             "documents": []
                     *           },
                     *           {
                     *             "id": "01a21b0effdb97f2ecd8a450",
                     *             "at": 1795750297563,
                     *             "kind": "status_changed",
                     *             "actor": {
                     *               "clientId": "01a21b0efef611cb46690fc1",
                     *               "agentId": null,
                     *               "requestId": "HAWmZJ/b//N0A/k=",
                     *               "importId": null
                     *             },
                     *             "changes": [
                     *               {
                     *                 "field": "status",
                     *                 "before": "opened",
                     *                 "after": "on hold"
                     *               }
                     *             ],
                     *             "replies": [],
                     *             "notes": [],
                     *             "documents": []
                     *           },
                     *           {
                     *             "id": "01a21b0f048297b682b3445a",
                     *             "at": 1795750298754,
                     *             "kind": "status_changed",
                     *             "actor": {
                     *               "clientId": "01a21b0efef611cb46690fc1",
                     *               "agentId": null,
                     *               "requestId": "NufHXRE7IRJcdWc=",
                     *               "importId": null
                     *             },
                     *             "changes": [
                     *               {
                     *                 "field": "status",
                     *                 "before": "on hold",
                     *                 "after": "opened"
                     *               }
                     *             ],
                     *             "replies": [],
                     *             "notes": [],
                     *             "documents": []
                     *           },
                     *           {
                     *             "id": "01a21b0f04c2aa18e8e840b8",
                     *             "at": 1795750298818,
                     *             "kind": "status_changed",
                     *             "actor": {
                     *               "clientId": "01a21b0efef611cb46690fc1",
                     *               "agentId": null,
                     *               "requestId": "V5+b2q4mY/qNWYs=",
                     *               "importId": null
                     *             },
                     *             "changes": [
                     *               {
                     *                 "field": "status",
                     *                 "before": "opened",
                     *                 "after": "on hold"
                     *               }
                     *             ],
                     *             "replies": [],
                     *             "notes": [],
                     *             "documents": []
                     *           },
                     *           {
                     *             "id": "01a21b0f04f872cdfdc26691",
                     *             "at": 1795750298872,
                     *             "kind": "updated",
                     *             "actor": {
                     *               "clientId": "01a21b0efef611cb46690fc1",
                     *               "agentId": null,
                     *               "requestId": "Z7GlwFUpSxD8zw0=",
                     *               "importId": null
                     *             },
                     *             "changes": [],
                     *             "replies": [],
                     *             "notes": [],
                     *             "documents": []
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["HistoryEntryPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subject": "s",
                 *       "description": "d",
                 *       "openedBy": {
                 *         "id": "01a21b0d444a8ce8ea2a7023"
                 *       },
                 *       "replies": [
                 *         {
                 *           "text": "at 1",
                 *           "replyDate": 1767229200000
                 *         },
                 *         {
                 *           "text": "at 2",
                 *           "replyDate": 1767232800000
                 *         },
                 *         {
                 *           "text": "at 3",
                 *           "replyDate": 1767236400000
                 *         },
                 *         {
                 *           "text": "at 4",
                 *           "replyDate": 1767240000000
                 *         },
                 *         {
                 *           "text": "at 5",
                 *           "replyDate": 1767243600000
                 *         },
                 *         {
                 *           "text": "at 6",
                 *           "replyDate": 1767247200000
                 *         },
                 *         {
                 *           "text": "at 7",
                 *           "replyDate": 1767250800000
                 *         },
                 *         {
                 *           "text": "at 8",
                 *           "replyDate": 1767254400000
                 *         },
                 *         {
                 *           "text": "at 9",
                 *           "replyDate": 1767258000000
                 *         },
                 *         {
                 *           "text": "at 10",
                 *           "replyDate": 1767261600000
                 *         },
                 *         {
                 *           "text": "at 11",
                 *           "replyDate": 1767265200000
                 *         },
                 *         {
                 *           "text": "at 12",
                 *           "replyDate": 1767268800000
                 *         },
                 *         {
                 *           "text": "at 13",
                 *           "replyDate": 1767272400000
                 *         },
                 *         {
                 *           "text": "at 14",
                 *           "replyDate": 1767276000000
                 *         },
                 *         {
                 *           "text": "at 15",
                 *           "replyDate": 1767279600000
                 *         },
                 *         {
                 *           "text": "at 16",
                 *           "replyDate": 1767283200000
                 *         },
                 *         {
                 *           "text": "at 17",
                 *           "replyDate": 1767286800000
                 *         },
                 *         {
                 *           "text": "at 18",
                 *           "replyDate": 1767290400000
                 *         },
                 *         {
                 *           "text": "at 19",
                 *           "replyDate": 1767294000000
                 *         },
                 *         {
                 *           "text": "at 20",
                 *           "replyDate": 1767297600000
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["TicketInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0d44bea77f2bafc195"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subject": "changed",
                 *       "tags": [
                 *         "blue"
                 *       ],
                 *       "status": "solved",
                 *       "assignedTo": null,
                 *       "cc": [
                 *         {
                 *           "id": "01a21b09caae2038f2454dcd"
                 *         }
                 *       ],
                 *       "attachedDocuments": [
                 *         {
                 *           "documentName": "b.txt",
                 *           "documentType": "text/plain",
                 *           "documentBase64": "Ynl0ZXMgb2YgYi50eHQ="
                 *         },
                 *         {
                 *           "documentName": "big.bin",
                 *           "documentType": "text/plain",
                 *           "uploadId": "01a21b09cb40ecb86d4a7a4d"
                 *         }
                 *       ],
                 *       "replies": [
                 *         {
                 *           "text": "more",
                 *           "replyFromOperator": {
                 *             "id": "01a21b09cb513d72c9add452"
                 *           },
                 *           "attachedDocuments": [
                 *             {
                 *               "documentName": "c.txt",
                 *               "documentType": "text/plain",
                 *               "documentBase64": "Ynl0ZXMgb2YgYy50eHQ="
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["TicketUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b09cac2259ece26224c"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a20661418d493a523651e8"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketTrashList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ticket": {
                     *         "totalRecords": 1,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0de3e040e7ff08a914",
                     *             "number": "2/2026",
                     *             "subject": "About [erased]",
                     *             "description": "[erased]",
                     *             "insertDate": 1795750224864,
                     *             "managedDate": 1795750224933,
                     *             "closedDate": null,
                     *             "priority": 0,
                     *             "assignedTo": null,
                     *             "cc": [],
                     *             "openedBy": null,
                     *             "numberOfReplies": 0,
                     *             "tags": [],
                     *             "status": {
                     *               "status": "opened",
                     *               "labels": {
                     *                 "en": "Opened",
                     *                 "it": "Aperto",
                     *                 "es": "Abierto",
                     *                 "fr": "Ouvert"
                     *               }
                     *             },
                     *             "type": null,
                     *             "area": null,
                     *             "group": null,
                     *             "memo": null,
                     *             "source": {
                     *               "source": "web",
                     *               "labels": {
                     *                 "en": "Web",
                     *                 "it": "Web",
                     *                 "es": "Web",
                     *                 "fr": "Web"
                     *               }
                     *             },
                     *             "customFields": [],
                     *             "tweetId": null,
                     *             "tweetType": null,
                     *             "facebookId": null,
                     *             "facebookType": null,
                     *             "linkedinId": null,
                     *             "linkedinType": null,
                     *             "googlePlusId": null,
                     *             "googlePlusType": null,
                     *             "youtubeId": null,
                     *             "youtubeType": null,
                     *             "messageUniqueId": null,
                     *             "customPortalId": null,
                     *             "toReply": true,
                     *             "toReplyCustomer": false,
                     *             "externalId1": null,
                     *             "mergedInto": null,
                     *             "mergedTickets": [
                     *               "01a21b0de3ab1a6be704be27"
                     *             ],
                     *             "deletedAt": 1795750225152,
                     *             "purgesAt": 1798342225152
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TrashedTicketPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketRestore: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b08938fa7ab706372e0"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketPurge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b07b0e971a54b815921"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketMerge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sources": [
                 *         "01a21b0d3bfa3ad3abcc006d",
                 *         "01a21b0d3d230316ba98b9e1"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["TicketMergeBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0d3ac7c536b50e0746"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketUnmerge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b09de1315e1d5ede651"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketReply: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "hello",
                 *       "replyFromOperator": {
                 *         "id": "01a21b09df6ad6dab3fa2a84"
                 *       },
                 *       "attachedDocuments": [
                 *         {
                 *           "documentName": "a.txt",
                 *           "documentType": "text/plain",
                 *           "documentBase64": "Ynl0ZXMgb2YgYS50eHQ="
                 *         },
                 *         {
                 *           "documentName": "big.bin",
                 *           "documentType": "text/plain",
                 *           "uploadId": "01a21b09dfeca6774ddde906"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ReplyInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b09e0158f5ec4756b55"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketAddNote: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "note": "Customer is VIP",
                 *       "insertBy": "01a21b0cc40f094d20d3a680",
                 *       "assignedTo": "01a21b0cc42080d445a5bdbb",
                 *       "date": "1700000000000",
                 *       "remindMe": 1800000000000
                 *     }
                 */
                "application/json": components["schemas"]["NoteInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0cc455d77741f889c8"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketBulk: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "operations": [
                 *         {
                 *           "op": "update",
                 *           "id": "01a21b0ff5d39eab4b3ed5ea",
                 *           "body": {
                 *             "subject": "mine now"
                 *           }
                 *         },
                 *         {
                 *           "op": "reply",
                 *           "id": "01a21b0ff5d39eab4b3ed5ea",
                 *           "body": {
                 *             "text": "hi"
                 *           }
                 *         },
                 *         {
                 *           "op": "delete",
                 *           "id": "01a21b0ff5d39eab4b3ed5ea"
                 *         },
                 *         {
                 *           "op": "insert",
                 *           "body": {
                 *             "subject": "s",
                 *             "description": "d",
                 *             "openedBy": {
                 *               "id": "01a21b0ff5b64b949506e271"
                 *             }
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["TicketBulkBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "results": [
                     *         {
                     *           "status": 404,
                     *           "body": {
                     *             "type": "urn:helpdesk:problem:not-found",
                     *             "title": "Not Found",
                     *             "status": 404,
                     *             "detail": "Ticket 01a21b0ff5d39eab4b3ed5ea does not exist.",
                     *             "instance": "/ticket/update/01a21b0ff5d39eab4b3ed5ea"
                     *           }
                     *         },
                     *         {
                     *           "status": 404,
                     *           "body": {
                     *             "type": "urn:helpdesk:problem:not-found",
                     *             "title": "Not Found",
                     *             "status": 404,
                     *             "detail": "Ticket 01a21b0ff5d39eab4b3ed5ea does not exist.",
                     *             "instance": "/ticket/reply/01a21b0ff5d39eab4b3ed5ea"
                     *           }
                     *         },
                     *         {
                     *           "status": 404,
                     *           "body": {
                     *             "type": "urn:helpdesk:problem:not-found",
                     *             "title": "Not Found",
                     *             "status": 404,
                     *             "detail": "Ticket 01a21b0ff5d39eab4b3ed5ea does not exist.",
                     *             "instance": "/ticket/delete/01a21b0ff5d39eab4b3ed5ea"
                     *           }
                     *         },
                     *         {
                     *           "status": 400,
                     *           "body": {
                     *             "type": "urn:helpdesk:problem:invalid-reference",
                     *             "title": "Bad Request",
                     *             "status": 400,
                     *             "detail": "Customer 01a21b0ff5b64b949506e271 does not exist.",
                     *             "errors": [
                     *               {
                     *                 "path": "openedBy.id",
                     *                 "message": "Customer 01a21b0ff5b64b949506e271 does not exist"
                     *               }
                     *             ],
                     *             "instance": "/ticket/insert"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["BulkResults"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
                /** @description Id of the document. */
                documentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["Location"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "http://127.0.0.1:42439/helpdesk-blobs/t/01a21b0f9ec0fc36e2ebace2/ticket/01a21b0f9f4f1459a031d092/01a21b0f9f50cd2ccb4a1212?response-content-type=text%2Fplain&response-content-disposition=attachment%3B+filename%3D%22Gr__e+_+___+_.txt%22%3B+filename*%3DUTF-8%27%27Gr%25C3%25B6%25C3%259Fe%2520%25E2%2580%2593%2520%25E6%2597%25A5%25E6%259C%25AC%25E8%25AA%259E%2520%25F0%259F%2598%2580.txt&X-Amz-Expires=300&X-Amz-Date=20261127T033218Z&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=S3RVER%2F20261127%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-SignedHeaders=host&X-Amz-Signature=32f2cc6cd3e48ffbd6663e35f0b6581d9495c43ec86bdd5b2b79019ed8abe845",
                     *       "expiresIn": 300
                     *     }
                     */
                    "application/json": components["schemas"]["Redirect"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketAttachmentUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "documentName": "big.bin",
                 *       "documentType": "application/zip"
                 *     }
                 */
                "application/json": components["schemas"]["TicketAttachmentUploadBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "uploadId": "01a21b0fa364deba7d15b44d",
                     *       "uploadUrl": "http://127.0.0.1:42439/helpdesk-blobs/staging/01a21b0fa2dc50a3c84f5857/01a21b0fa364deba7d15b44d?X-Amz-Expires=900&X-Amz-Date=20261127T033219Z&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=S3RVER%2F20261127%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-SignedHeaders=content-type%3Bhost&X-Amz-Signature=0d90a83dc8d287913a81a16ca5374ad80e3e0eeb157bf271fbcddf0696d0d572",
                     *       "method": "PUT",
                     *       "headers": {
                     *         "content-type": "application/zip"
                     *       },
                     *       "expiresIn": 900,
                     *       "maxBytes": 104857600
                     *     }
                     */
                    "application/json": components["schemas"]["Upload"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    docsPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API reference page. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    "Content-Security-Policy": components["headers"]["ContentSecurityPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["Problem400"];
            500: components["responses"]["Problem500"];
        };
    };
    docsRenderer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference page's renderer. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    ETag: components["headers"]["FileETag"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description No content. */
            304: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    ETag: components["headers"]["FileETag"];
                    Vary: components["headers"]["Vary"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            500: components["responses"]["Problem500"];
        };
    };
    customerList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `email` (one search field at a time; unknown parameters are a 400). */
                email?: string;
                /** @description Exact-match search by `name` (one search field at a time; unknown parameters are a 400). */
                name?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "customer": {
                     *         "totalRecords": 2,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0b72f1947711a1e0a0",
                     *             "name": "Ada",
                     *             "birthDate": null,
                     *             "email": "ada@example.com",
                     *             "phoneNumber": null,
                     *             "faxNumber": null,
                     *             "mobileNumber": null,
                     *             "address": null,
                     *             "city": null,
                     *             "province": null,
                     *             "state": null,
                     *             "postalNumber": null,
                     *             "skypeAddress": null,
                     *             "msnAddress": null,
                     *             "gtalkAddress": null,
                     *             "twitterAccountUrl": null,
                     *             "facebookAccountUrl": null,
                     *             "linkedinAccountUrl": null,
                     *             "googleAccountUrl": null,
                     *             "youtubeAccountUrl": null,
                     *             "registrationChannel": null,
                     *             "topClient": false,
                     *             "profilePhotoUrl": "http://localhost/customer/photo/01a21b0b72f1947711a1e0a0",
                     *             "profilePhotoBlob": null,
                     *             "signature": null,
                     *             "memo": null,
                     *             "website": null,
                     *             "company": null,
                     *             "language": "en",
                     *             "account": null,
                     *             "insertByAgentId": null,
                     *             "customFields": null
                     *           },
                     *           {
                     *             "id": "01a21b0b72dfe9263042e71d",
                     *             "name": "Linus",
                     *             "birthDate": null,
                     *             "email": "linus@example.com",
                     *             "phoneNumber": null,
                     *             "faxNumber": null,
                     *             "mobileNumber": null,
                     *             "address": null,
                     *             "city": null,
                     *             "province": null,
                     *             "state": null,
                     *             "postalNumber": null,
                     *             "skypeAddress": null,
                     *             "msnAddress": null,
                     *             "gtalkAddress": null,
                     *             "twitterAccountUrl": null,
                     *             "facebookAccountUrl": null,
                     *             "linkedinAccountUrl": null,
                     *             "googleAccountUrl": null,
                     *             "youtubeAccountUrl": null,
                     *             "registrationChannel": null,
                     *             "topClient": false,
                     *             "profilePhotoUrl": "http://localhost/customer/photo/01a21b0b72dfe9263042e71d",
                     *             "profilePhotoBlob": null,
                     *             "signature": null,
                     *             "memo": null,
                     *             "website": null,
                     *             "company": null,
                     *             "language": "en",
                     *             "account": null,
                     *             "insertByAgentId": null,
                     *             "customFields": null
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CustomerPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b10e9acea6e3076e79e",
                     *       "name": "Ada Lovelace",
                     *       "birthDate": -4857552000000,
                     *       "email": "Ada@Example.com",
                     *       "phoneNumber": "+44 20 7946 0000",
                     *       "faxNumber": "+44 20 7946 0001",
                     *       "mobileNumber": "+44 7700 900000",
                     *       "address": "12 St James Square",
                     *       "city": "London",
                     *       "province": null,
                     *       "state": "GB",
                     *       "postalNumber": "SW1Y 4JH",
                     *       "skypeAddress": "ada.skype",
                     *       "msnAddress": null,
                     *       "gtalkAddress": null,
                     *       "twitterAccountUrl": "https://twitter.com/ada",
                     *       "facebookAccountUrl": null,
                     *       "linkedinAccountUrl": null,
                     *       "googleAccountUrl": null,
                     *       "youtubeAccountUrl": null,
                     *       "registrationChannel": "web",
                     *       "topClient": true,
                     *       "profilePhotoUrl": "http://localhost/customer/photo/01a21b10e9acea6e3076e79e",
                     *       "profilePhotoBlob": null,
                     *       "signature": "Ada",
                     *       "memo": "first programmer",
                     *       "website": "https://ada.example.com",
                     *       "company": "Analytical Engines",
                     *       "language": "it",
                     *       "account": {
                     *         "username": "ada"
                     *       },
                     *       "insertByAgentId": null,
                     *       "customFields": {
                     *         "tier": "gold",
                     *         "seats": 3
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ada Lovelace",
                 *       "email": "Ada@Example.com",
                 *       "birthDate": -4857552000000,
                 *       "phoneNumber": "+44 20 7946 0000",
                 *       "faxNumber": "+44 20 7946 0001",
                 *       "mobileNumber": "+44 7700 900000",
                 *       "address": "12 St James Square",
                 *       "city": "London",
                 *       "province": null,
                 *       "state": "gb",
                 *       "postalNumber": "SW1Y 4JH",
                 *       "skypeAddress": "ada.skype",
                 *       "msnAddress": null,
                 *       "gtalkAddress": null,
                 *       "twitterAccountUrl": "https://twitter.com/ada",
                 *       "facebookAccountUrl": null,
                 *       "linkedinAccountUrl": null,
                 *       "googleAccountUrl": null,
                 *       "youtubeAccountUrl": null,
                 *       "registrationChannel": "web",
                 *       "topClient": true,
                 *       "profilePhotoBlob": null,
                 *       "signature": "Ada",
                 *       "memo": "first programmer",
                 *       "website": "https://ada.example.com",
                 *       "company": "Analytical Engines",
                 *       "language": "it",
                 *       "account": {
                 *         "username": "ada",
                 *         "password": "correct horse battery"
                 *       },
                 *       "insertByAgentId": null,
                 *       "customFields": {
                 *         "tier": "gold",
                 *         "seats": 3
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CustomerInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b10e9acea6e3076e79e"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    customerUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "insertByAgentId": "01a21b09eaa9015e3b98879a",
                 *       "profilePhotoBlob": "/9j/4AAQSkZJRgABAQAAAQABAAD/wAALCAHgAoABAREA/9k="
                 *     }
                 */
                "application/json": components["schemas"]["CustomerUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b09eac6cfc838c1562d"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    customerDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b09ec690d77fe51b6b1"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    customerBulk: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "operations": [
                 *         {
                 *           "op": "insert",
                 *           "key": "c1",
                 *           "body": {
                 *             "name": "New",
                 *             "email": "new@example.com"
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CustomerBulkBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "results": [
                     *         {
                     *           "status": 201,
                     *           "body": {
                     *             "id": "01a21b0ffd56228a1f654845"
                     *           },
                     *           "replayed": true,
                     *           "position": "09008995005103447#01a21b0ffd57c6b3a5df8862"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["BulkResults"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerPhoto: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes, with their media type. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "Content-Disposition": components["headers"]["ContentDisposition"];
                    "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
                    "Content-Security-Policy": components["headers"]["FileContentSecurityPolicy"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": unknown;
                    "image/jpeg": unknown;
                    "image/gif": unknown;
                    "image/webp": unknown;
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerSearch: {
        parameters: {
            query: {
                /**
                 * @description Exact-match search by `query` (one search field at a time; unknown parameters are a 400).
                 * @example fischer
                 */
                query: string;
                /** @description Exact-match search by `sort` (one search field at a time; unknown parameters are a 400). */
                sort?: "relevance" | "created" | "updated";
                /** @description Exact-match search by `order` (one search field at a time; unknown parameters are a 400). */
                order?: "asc" | "desc";
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
                /** @description Read your writes: the `Helpdesk-Position` a write answered. The search waits (up to 5 s) until the index has applied that change and every earlier one of the account, then answers; past the wait, 503 `index-behind` with Retry-After. Without it, the search answers at once from what is indexed. */
                "Helpdesk-Min-Position"?: components["parameters"]["HelpdeskMinPosition"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "customer": {
                     *         "totalRecords": 1,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0c99404a31d7ce90e0",
                     *             "name": "Lena Fischer",
                     *             "birthDate": null,
                     *             "email": "lena@fischer.de",
                     *             "phoneNumber": null,
                     *             "faxNumber": null,
                     *             "mobileNumber": null,
                     *             "address": null,
                     *             "city": null,
                     *             "province": null,
                     *             "state": null,
                     *             "postalNumber": null,
                     *             "skypeAddress": null,
                     *             "msnAddress": null,
                     *             "gtalkAddress": null,
                     *             "twitterAccountUrl": null,
                     *             "facebookAccountUrl": null,
                     *             "linkedinAccountUrl": null,
                     *             "googleAccountUrl": null,
                     *             "youtubeAccountUrl": null,
                     *             "registrationChannel": null,
                     *             "topClient": false,
                     *             "profilePhotoUrl": "http://localhost/customer/photo/01a21b0c99404a31d7ce90e0",
                     *             "profilePhotoBlob": null,
                     *             "signature": null,
                     *             "memo": null,
                     *             "website": null,
                     *             "company": "Fischer GmbH",
                     *             "language": "en",
                     *             "account": null,
                     *             "insertByAgentId": null,
                     *             "customFields": null,
                     *             "highlights": {
                     *               "name": [
                     *                 "Lena <em>Fischer</em>"
                     *               ],
                     *               "email": [
                     *                 "lena@fischer.de fischer.de lena <em>fischer</em>"
                     *               ],
                     *               "details": [
                     *                 "<em>Fischer</em> GmbH"
                     *               ]
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CustomerMatchPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerHistory: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "history": {
                     *         "totalRecords": 3,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b10a1a691b5d0f42cd7",
                     *             "at": 1795750404518,
                     *             "kind": "created",
                     *             "actor": {
                     *               "clientId": "01a21b10a10d275d1323d346",
                     *               "agentId": null,
                     *               "requestId": "FLEVgfvuXwcoTHc=",
                     *               "importId": null
                     *             },
                     *             "changes": [],
                     *             "replies": [],
                     *             "notes": [],
                     *             "documents": []
                     *           },
                     *           {
                     *             "id": "01a21b10a1cd2031787d8566",
                     *             "at": 1795750404557,
                     *             "kind": "updated",
                     *             "actor": {
                     *               "clientId": "01a21b10a10d275d1323d346",
                     *               "agentId": null,
                     *               "requestId": "xDhRPWwiFZjhpPY=",
                     *               "importId": null
                     *             },
                     *             "changes": [
                     *               {
                     *                 "field": "company",
                     *                 "before": null,
                     *                 "after": "Engines"
                     *               }
                     *             ],
                     *             "replies": [],
                     *             "notes": [],
                     *             "documents": []
                     *           },
                     *           {
                     *             "id": "01a21b10a2921b40f03e74fc",
                     *             "at": 1795750404754,
                     *             "kind": "updated",
                     *             "actor": {
                     *               "clientId": "01a21b10a10d275d1323d346",
                     *               "agentId": null,
                     *               "requestId": "oXLdzU+NBIQMDmU=",
                     *               "importId": null
                     *             },
                     *             "changes": [
                     *               {
                     *                 "field": "account",
                     *                 "before": null,
                     *                 "after": {
                     *                   "username": "ada"
                     *                 }
                     *               }
                     *             ],
                     *             "replies": [],
                     *             "notes": [],
                     *             "documents": []
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["HistoryEntryPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerExportStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b1189318da150ae9708",
                     *       "customerId": "01a21b1181698a69edea64e9",
                     *       "requestedAt": 1795750463793,
                     *       "finishedAt": 1795750464026,
                     *       "statusUrl": "http://localhost/customer/export/01a21b1189318da150ae9708",
                     *       "status": "expired",
                     *       "downloadUrl": null,
                     *       "expiresAt": 1795750464122
                     *     }
                     */
                    "application/json": components["schemas"]["ExportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerExport: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            202: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b09f3482c0dcf85c29b",
                     *       "customerId": "01a21b09f30c4b4ad5e7167d",
                     *       "requestedAt": 1795749966664,
                     *       "finishedAt": null,
                     *       "statusUrl": "http://localhost/customer/export/01a21b09f3482c0dcf85c29b",
                     *       "status": "pending",
                     *       "downloadUrl": null,
                     *       "expiresAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["ExportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    customerEraseStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0c95242d3c61629326",
                     *       "customerId": "01a21b0c9451388399948a30",
                     *       "requestedAt": 1795750139172,
                     *       "finishedAt": 1795750139515,
                     *       "statusUrl": "http://localhost/customer/erase/01a21b0c95242d3c61629326",
                     *       "status": "done",
                     *       "mode": "anonymise",
                     *       "dryRun": false,
                     *       "receipt": {
                     *         "tickets": 1,
                     *         "notes": 0,
                     *         "replies": 0,
                     *         "documents": 0,
                     *         "exports": 0,
                     *         "customers": 1,
                     *         "historyEntries": 1,
                     *         "photos": 0,
                     *         "events": 2,
                     *         "deliveries": 0
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErasureJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerErase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "mode": "anonymise"
                 *     }
                 */
                "application/json": components["schemas"]["CustomerEraseBody"];
            };
        };
        responses: {
            /** @description The job, every field present (null when not known yet). */
            202: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0c95242d3c61629326",
                     *       "customerId": "01a21b0c9451388399948a30",
                     *       "requestedAt": 1795750139172,
                     *       "finishedAt": null,
                     *       "statusUrl": "http://localhost/customer/erase/01a21b0c95242d3c61629326",
                     *       "status": "pending",
                     *       "mode": "anonymise",
                     *       "dryRun": false,
                     *       "receipt": null
                     *     }
                     */
                    "application/json": components["schemas"]["ErasureJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    agentList: {
        parameters: {
            query?: {
                /**
                 * @description Page number, from 1 (default 1). A page past the end has no records.
                 * @example 2
                 */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `email` (one search field at a time; unknown parameters are a 400). */
                email?: string;
                /**
                 * @description Exact-match search by `name` (one search field at a time; unknown parameters are a 400).
                 * @example Same Name
                 */
                name?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent": {
                     *         "totalRecords": 30,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": "http://localhost/agent/list?name=Same+Name&page=1",
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b10dc0dbb08d5c93434",
                     *             "name": "Same Name",
                     *             "email": "agent4@example.com",
                     *             "phoneNumber": null,
                     *             "language": "en",
                     *             "signature": null
                     *           },
                     *           {
                     *             "id": "01a21b10dbeed4975a604c52",
                     *             "name": "Same Name",
                     *             "email": "agent3@example.com",
                     *             "phoneNumber": null,
                     *             "language": "en",
                     *             "signature": null
                     *           },
                     *           {
                     *             "id": "01a21b10dbca550e5388772e",
                     *             "name": "Same Name",
                     *             "email": "agent2@example.com",
                     *             "phoneNumber": null,
                     *             "language": "en",
                     *             "signature": null
                     *           },
                     *           {
                     *             "id": "01a21b10dbaf05cdeb55dcdb",
                     *             "name": "Same Name",
                     *             "email": "agent1@example.com",
                     *             "phoneNumber": null,
                     *             "language": "en",
                     *             "signature": null
                     *           },
                     *           {
                     *             "id": "01a21b10db70b1ba1a052537",
                     *             "name": "Same Name",
                     *             "email": "agent0@example.com",
                     *             "phoneNumber": null,
                     *             "language": "en",
                     *             "signature": null
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AgentPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    agentDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b11a153b293579a1459",
                     *       "name": "Grace Hopper",
                     *       "email": "grace@example.com",
                     *       "phoneNumber": "+1 555 0100",
                     *       "language": "es",
                     *       "signature": "-- Grace"
                     *     }
                     */
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    agentInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Grace Hopper",
                 *       "email": "grace@example.com",
                 *       "phoneNumber": "+1 555 0100",
                 *       "language": "es",
                 *       "signature": "-- Grace"
                 *     }
                 */
                "application/json": components["schemas"]["AgentInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b11a153b293579a1459"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    agentUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "phoneNumber": null,
                 *       "name": "Rear Admiral Hopper"
                 *     }
                 */
                "application/json": components["schemas"]["AgentUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b11a153b293579a1459"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    agentDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a2066140ae8a03519b1be4"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketTypeList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `type` (one search field at a time; unknown parameters are a 400). */
                type?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": {
                     *         "totalRecords": 7,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b09fb4f140d39b7542b",
                     *             "type": "type2",
                     *             "labels": {
                     *               "en": "type2",
                     *               "it": "type2",
                     *               "fr": "type2",
                     *               "es": "type2"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b09fb3fb5d7de144c1a",
                     *             "type": "type1",
                     *             "labels": {
                     *               "en": "type1",
                     *               "it": "type1",
                     *               "fr": "type1",
                     *               "es": "type1"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b09fb2d1972e8f45514",
                     *             "type": "type0",
                     *             "labels": {
                     *               "en": "type0",
                     *               "it": "type0",
                     *               "fr": "type0",
                     *               "es": "type0"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b09fac96a7998d0da27",
                     *             "type": "task",
                     *             "labels": {
                     *               "en": "Task",
                     *               "it": "Attività",
                     *               "fr": "Tâche",
                     *               "es": "Tarea"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b09fac95fcdf02dbc1e",
                     *             "type": "problem",
                     *             "labels": {
                     *               "en": "Problem",
                     *               "it": "Problema",
                     *               "fr": "Problème",
                     *               "es": "Problema"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b09fac954641e75ae08",
                     *             "type": "question",
                     *             "labels": {
                     *               "en": "Question",
                     *               "it": "Domanda",
                     *               "fr": "Question",
                     *               "es": "Pregunta"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b09fac9489d19dd7c43",
                     *             "type": "incident",
                     *             "labels": {
                     *               "en": "Incident",
                     *               "it": "Incidente",
                     *               "fr": "Incident",
                     *               "es": "Incidente"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TicketTypePage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketTypeDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119765a1026754887f",
                     *       "type": "billing",
                     *       "labels": {
                     *         "en": "billing",
                     *         "it": "Fatturazione",
                     *         "fr": "Facturation",
                     *         "es": "billing"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TicketType"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketTypeInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "billing",
                 *       "labels": {
                 *         "it": "Fatturazione"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TicketTypeInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119765a1026754887f"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketTypeUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "labels": {
                 *         "fr": "Facturation"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TicketTypeUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119765a1026754887f"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketTypeDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b09fe06136d24176e53"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketAreaList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `area` (one search field at a time; unknown parameters are a 400). */
                area?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "area": {
                     *         "totalRecords": 3,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b09ff43822fd7829f3e",
                     *             "area": "area2",
                     *             "labels": {
                     *               "en": "area2",
                     *               "it": "area2",
                     *               "fr": "area2",
                     *               "es": "area2"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b09ff2b06e2429ab1b5",
                     *             "area": "area1",
                     *             "labels": {
                     *               "en": "area1",
                     *               "it": "area1",
                     *               "fr": "area1",
                     *               "es": "area1"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b09ff099dc2a0170a24",
                     *             "area": "area0",
                     *             "labels": {
                     *               "en": "area0",
                     *               "it": "area0",
                     *               "fr": "area0",
                     *               "es": "area0"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TicketAreaPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketAreaDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119b4abedd1412ca01",
                     *       "area": "billing",
                     *       "labels": {
                     *         "en": "billing",
                     *         "it": "Fatturazione",
                     *         "fr": "Facturation",
                     *         "es": "billing"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TicketArea"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketAreaInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "area": "billing",
                 *       "labels": {
                 *         "it": "Fatturazione"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TicketAreaInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119b4abedd1412ca01"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketAreaUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "labels": {
                 *         "fr": "Facturation"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TicketAreaUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119b4abedd1412ca01"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketAreaDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0a0218c7350839e44c"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketGroupList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `group` (one search field at a time; unknown parameters are a 400). */
                group?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "group": {
                     *         "totalRecords": 3,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0a02eaa449ddfb28e1",
                     *             "group": "group2",
                     *             "labels": {
                     *               "en": "group2",
                     *               "it": "group2",
                     *               "fr": "group2",
                     *               "es": "group2"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b0a02dc76ad918dc1a6",
                     *             "group": "group1",
                     *             "labels": {
                     *               "en": "group1",
                     *               "it": "group1",
                     *               "fr": "group1",
                     *               "es": "group1"
                     *             }
                     *           },
                     *           {
                     *             "id": "01a21b0a02c529c8ef0f0d2b",
                     *             "group": "group0",
                     *             "labels": {
                     *               "en": "group0",
                     *               "it": "group0",
                     *               "fr": "group0",
                     *               "es": "group0"
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TicketGroupPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketGroupDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119e5c7bdfc2161d65",
                     *       "group": "billing",
                     *       "labels": {
                     *         "en": "billing",
                     *         "it": "Fatturazione",
                     *         "fr": "Facturation",
                     *         "es": "billing"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TicketGroup"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketGroupInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "group": "billing",
                 *       "labels": {
                 *         "it": "Fatturazione"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TicketGroupInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119e5c7bdfc2161d65"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketGroupUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "labels": {
                 *         "fr": "Facturation"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TicketGroupUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b119e5c7bdfc2161d65"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketGroupDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0a05bf2135d48c222c"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    webhookList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhook": {
                     *         "totalRecords": 3,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "id": "01a21b0a06f0e4f676bef7c6",
                     *             "url": "https://1.1.1.1/hooks/2",
                     *             "types": [],
                     *             "enabled": true,
                     *             "description": null,
                     *             "createdAt": 1795749971696,
                     *             "disabledReason": null
                     *           },
                     *           {
                     *             "id": "01a21b0a06e29c7cdb6e0da3",
                     *             "url": "https://1.1.1.1/hooks/1",
                     *             "types": [],
                     *             "enabled": true,
                     *             "description": null,
                     *             "createdAt": 1795749971682,
                     *             "disabledReason": null
                     *           },
                     *           {
                     *             "id": "01a21b0a06c16c3c9d06a193",
                     *             "url": "https://1.1.1.1/hooks/0",
                     *             "types": [],
                     *             "enabled": true,
                     *             "description": null,
                     *             "createdAt": 1795749971649,
                     *             "disabledReason": null
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    webhookDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b116bdef870e9244a93",
                     *       "url": "https://1.1.1.1/hooks/helpdesk",
                     *       "types": [],
                     *       "enabled": false,
                     *       "description": "fixed the receiver",
                     *       "createdAt": 1795750456286,
                     *       "disabledReason": "failed for 24 h: answered 500"
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    webhookInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "http://127.0.0.1:35603/trash-purged",
                 *       "types": [
                 *         "ticket.purged"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b089378ec9aef5e9658",
                     *       "secret": "whsec_+Yh7MH1rtpaoHwulG+K6KOcQ9YDGs2rk"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    webhookUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "fixed the receiver"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b116bdef870e9244a93"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    webhookDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b08d9c6a4164cb2be5f"
                     *     }
                     */
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    webhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "delivery": {
                     *         "totalRecords": 8,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "eventId": "01a21b08ae8a25b2b570e24d",
                     *             "eventType": "ticket.created",
                     *             "attempt": 2,
                     *             "at": 1795749884818,
                     *             "ok": true,
                     *             "status": 204,
                     *             "error": null,
                     *             "response": null,
                     *             "ms": 9
                     *           },
                     *           {
                     *             "eventId": "01a21b08ae4f1023baeadb24",
                     *             "eventType": "ticket.created",
                     *             "attempt": 2,
                     *             "at": 1795749884783,
                     *             "ok": true,
                     *             "status": 204,
                     *             "error": null,
                     *             "response": null,
                     *             "ms": 9
                     *           },
                     *           {
                     *             "eventId": "01a21b08ae23af705b2f540d",
                     *             "eventType": "ticket.created",
                     *             "attempt": 2,
                     *             "at": 1795749884732,
                     *             "ok": true,
                     *             "status": 204,
                     *             "error": null,
                     *             "response": null,
                     *             "ms": 2
                     *           },
                     *           {
                     *             "eventId": "01a21b08adf5ea7c17dbed3f",
                     *             "eventType": "customer.created",
                     *             "attempt": 2,
                     *             "at": 1795749884684,
                     *             "ok": true,
                     *             "status": 204,
                     *             "error": null,
                     *             "response": null,
                     *             "ms": 20
                     *           },
                     *           {
                     *             "eventId": "01a21b08ae8a25b2b570e24d",
                     *             "eventType": "ticket.created",
                     *             "attempt": 1,
                     *             "at": 1795749883716,
                     *             "ok": false,
                     *             "status": 503,
                     *             "error": "answered 503",
                     *             "response": "down",
                     *             "ms": 4
                     *           },
                     *           {
                     *             "eventId": "01a21b08ae4f1023baeadb24",
                     *             "eventType": "ticket.created",
                     *             "attempt": 1,
                     *             "at": 1795749883673,
                     *             "ok": false,
                     *             "status": null,
                     *             "error": "request failed: ECONNREFUSED",
                     *             "response": null,
                     *             "ms": 8
                     *           },
                     *           {
                     *             "eventId": "01a21b08ae23af705b2f540d",
                     *             "eventType": "ticket.created",
                     *             "attempt": 1,
                     *             "at": 1795749883623,
                     *             "ok": false,
                     *             "status": null,
                     *             "error": "request failed: ECONNREFUSED",
                     *             "response": null,
                     *             "ms": 14
                     *           },
                     *           {
                     *             "eventId": "01a21b08adf5ea7c17dbed3f",
                     *             "eventType": "customer.created",
                     *             "attempt": 1,
                     *             "at": 1795749883586,
                     *             "ok": false,
                     *             "status": null,
                     *             "error": "request failed: ECONNREFUSED",
                     *             "response": null,
                     *             "ms": 22
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    importCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0a0b841bb221adc514",
                     *       "status": "created",
                     *       "createdAt": 1795749972871,
                     *       "startedAt": null,
                     *       "finishedAt": null,
                     *       "size": null,
                     *       "bytesRead": 0,
                     *       "linesRead": 0,
                     *       "counts": {
                     *         "agent": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "customer": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketType": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketArea": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketGroup": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticket": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "unreadable": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         }
                     *       },
                     *       "totals": {
                     *         "read": 0,
                     *         "created": 0,
                     *         "skipped": 0,
                     *         "failed": 0
                     *       },
                     *       "progress": 0,
                     *       "etaSeconds": null,
                     *       "reason": null,
                     *       "uploadUrl": "http://127.0.0.1:42439/helpdesk-blobs/imports/01a21b0a0b06dcca0ed7fa09/01a21b0a0b841bb221adc514.ndjson?X-Amz-Expires=900&X-Amz-Date=20261127T032612Z&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=S3RVER%2F20261127%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-SignedHeaders=content-type%3Bhost&X-Amz-Signature=5408dd2a1f536f0b0c666a4f878b4bde1c81d6d2acec60435a16c25a16febc82",
                     *       "expiresIn": 900,
                     *       "maxBytes": 5368709120,
                     *       "statusUrl": "http://localhost/import/01a21b0a0b841bb221adc514",
                     *       "errorsUrl": "http://localhost/import/01a21b0a0b841bb221adc514/errors"
                     *     }
                     */
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    importDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0ba3b530c2a54defe1",
                     *       "status": "failed",
                     *       "createdAt": 1795750077367,
                     *       "startedAt": 1795750077413,
                     *       "finishedAt": 1795750077469,
                     *       "size": 26757,
                     *       "bytesRead": 0,
                     *       "linesRead": 0,
                     *       "counts": {
                     *         "agent": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "customer": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketType": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketArea": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketGroup": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticket": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "unreadable": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         }
                     *       },
                     *       "totals": {
                     *         "read": 0,
                     *         "created": 0,
                     *         "skipped": 0,
                     *         "failed": 0
                     *       },
                     *       "progress": 0,
                     *       "etaSeconds": null,
                     *       "reason": "The import file is gone, or was replaced after the job started.",
                     *       "uploadUrl": null,
                     *       "expiresIn": null,
                     *       "maxBytes": 5368709120,
                     *       "statusUrl": "http://localhost/import/01a21b0ba3b530c2a54defe1",
                     *       "errorsUrl": "http://localhost/import/01a21b0ba3b530c2a54defe1/errors"
                     *     }
                     */
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    importStart: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0b8d9f8c3a6b879612",
                     *       "status": "running",
                     *       "createdAt": 1795750071718,
                     *       "startedAt": 1795750071758,
                     *       "finishedAt": null,
                     *       "size": 11646,
                     *       "bytesRead": 0,
                     *       "linesRead": 0,
                     *       "counts": {
                     *         "agent": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "customer": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketType": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketArea": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketGroup": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticket": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "unreadable": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         }
                     *       },
                     *       "totals": {
                     *         "read": 0,
                     *         "created": 0,
                     *         "skipped": 0,
                     *         "failed": 0
                     *       },
                     *       "progress": 0,
                     *       "etaSeconds": null,
                     *       "reason": null,
                     *       "uploadUrl": null,
                     *       "expiresIn": null,
                     *       "maxBytes": 5368709120,
                     *       "statusUrl": "http://localhost/import/01a21b0b8d9f8c3a6b879612",
                     *       "errorsUrl": "http://localhost/import/01a21b0b8d9f8c3a6b879612/errors"
                     *     }
                     */
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    importCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "01a21b0ba509e0f61aa2f6ca",
                     *       "status": "cancelled",
                     *       "createdAt": 1795750077707,
                     *       "startedAt": 1795750077742,
                     *       "finishedAt": 1795750078284,
                     *       "size": 53217,
                     *       "bytesRead": 3623,
                     *       "linesRead": 10,
                     *       "counts": {
                     *         "agent": {
                     *           "read": 2,
                     *           "created": 2,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "customer": {
                     *           "read": 2,
                     *           "created": 2,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketType": {
                     *           "read": 1,
                     *           "created": 1,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketArea": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticketGroup": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "ticket": {
                     *           "read": 5,
                     *           "created": 5,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         },
                     *         "unreadable": {
                     *           "read": 0,
                     *           "created": 0,
                     *           "skipped": 0,
                     *           "failed": 0
                     *         }
                     *       },
                     *       "totals": {
                     *         "read": 10,
                     *         "created": 10,
                     *         "skipped": 0,
                     *         "failed": 0
                     *       },
                     *       "progress": 0.06807974895240243,
                     *       "etaSeconds": null,
                     *       "reason": null,
                     *       "uploadUrl": null,
                     *       "expiresIn": null,
                     *       "maxBytes": 5368709120,
                     *       "statusUrl": "http://localhost/import/01a21b0ba509e0f61aa2f6ca",
                     *       "errorsUrl": "http://localhost/import/01a21b0ba509e0f61aa2f6ca/errors"
                     *     }
                     */
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    importErrors: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "totalRecords": 4,
                     *         "recordsPerPage": 25,
                     *         "previousQuery": null,
                     *         "nextQuery": null,
                     *         "records": [
                     *           {
                     *             "line": 2,
                     *             "kind": null,
                     *             "externalId": null,
                     *             "problem": {
                     *               "detail": "Line 2 is not valid JSON.",
                     *               "type": "urn:helpdesk:problem:malformed-json",
                     *               "title": "Bad Request",
                     *               "status": 400
                     *             }
                     *           },
                     *           {
                     *             "line": 3,
                     *             "kind": "customer",
                     *             "externalId": "c2",
                     *             "problem": {
                     *               "detail": "Line 3 is not a valid import line.",
                     *               "type": "urn:helpdesk:problem:validation-error",
                     *               "title": "Bad Request",
                     *               "errors": [
                     *                 {
                     *                   "message": "must be a valid e-mail address",
                     *                   "path": "email"
                     *                 }
                     *               ],
                     *               "status": 400
                     *             }
                     *           },
                     *           {
                     *             "line": 4,
                     *             "kind": "ticket",
                     *             "externalId": "t1",
                     *             "problem": {
                     *               "detail": "The customer with externalId \"nobody\" does not exist.",
                     *               "type": "urn:helpdesk:problem:invalid-reference",
                     *               "title": "Bad Request",
                     *               "errors": [
                     *                 {
                     *                   "message": "no customer line with this externalId was imported before this line",
                     *                   "path": "openedBy.externalId"
                     *                 }
                     *               ],
                     *               "status": 400
                     *             }
                     *           },
                     *           {
                     *             "line": 7,
                     *             "kind": null,
                     *             "externalId": "i1",
                     *             "problem": {
                     *               "detail": "Line 7 is not a valid import line.",
                     *               "type": "urn:helpdesk:problem:validation-error",
                     *               "title": "Bad Request",
                     *               "errors": [
                     *                 {
                     *                   "message": "Invalid input",
                     *                   "path": "kind"
                     *                 }
                     *               ],
                     *               "status": 400
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ImportErrorPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
}
