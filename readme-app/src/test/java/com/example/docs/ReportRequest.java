package com.example.docs;

record ReportRequest(java.time.LocalDate day) {

}
