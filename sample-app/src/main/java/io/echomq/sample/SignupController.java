package io.echomq.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.core.JobId;
import io.echomq.flow.FlowJob;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /signups} with {@code {"email": "...", "name": "..."}}: answers the jobs,
 * the "welcome done" job that runs after them, and the welcome email's result when it
 * came within 2 s ({@code pending} else). A body without an {@code email} or a
 * {@code name} is answered {@code 400 Bad Request} with a problem detail naming the
 * missing fields.
 *
 * @author EchoMQ
 */
@RestController
public class SignupController {

	private static final Duration WELCOME_WAIT = Duration.ofSeconds(2);

	private final SignupService signups;

	public SignupController(SignupService signups) {
		this.signups = signups;
	}

	@PostMapping("/signups")
	@ResponseStatus(HttpStatus.ACCEPTED)
	public Map<String, Object> signUp(@RequestBody Signup signup) {
		List<String> missing = new ArrayList<>();
		if (!StringUtils.hasText(signup.email())) {
			missing.add("email");
		}
		if (!StringUtils.hasText(signup.name())) {
			missing.add("name");
		}
		if (!missing.isEmpty()) {
			throw new InvalidSignupException(missing);
		}
		FlowJob flow = this.signups.signUp(signup);
		List<JobId> jobs = flow.children().stream().map(FlowJob::id).toList();
		// the welcome email usually goes out within milliseconds: say so when it did
		String welcome = this.signups.welcomeResult(jobs.get(0), WELCOME_WAIT);
		return Map.of("jobs", jobs.stream().map(JobId::toString).toList(), "done", flow.id().toString(), "welcome",
				(welcome != null) ? welcome : "pending");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> invalidSignup(InvalidSignupException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				"Missing " + String.join(" and ", ex.missing) + ": a sign-up needs an email and a name");
		problem.setTitle("Invalid sign-up");
		problem.setProperty("missing", ex.missing);
		return ResponseEntity.badRequest().body(problem);
	}

	static final class InvalidSignupException extends RuntimeException {

		private final List<String> missing;

		InvalidSignupException(List<String> missing) {
			super("Missing " + missing);
			this.missing = List.copyOf(missing);
		}

	}

}
